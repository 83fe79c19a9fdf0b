package io.netpulse.holder;

import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "client", mixinStandardHelpOptions = true,
    description = {"Climb: open TCP connections to the server's ports (round-robin), a bounded number at a time, "
        + "until something ends the climb; hold them for --hold, until --duration is over or until SIGTERM/SIGINT; "
        + "then close them all and exit 0.",
        "The climb ends at the --connections cap; when every (source address, server port) pair has used the "
            + "ephemeral port range (client_ports); when this process runs out of open files (client_open_files); "
            + "after --max-failures failed connects in a row (refused, syn_timeouts, connect_errors); after --stall "
            + "without a new peak (closed_by_sut, stalled); or when stopped still rising (time_up). It prints "
            + "'connections: climb ended_by=CODE side=sut|client|plan|unknown open=N | DETAIL' at that moment.",
        "Each source address can reach about one ephemeral range (~28k) of connections per server port."})
public final class ConnectionsClientCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--server", required = true, paramLabel = "ADDR", description = "the server's address")
  InetAddress server;

  @Option(names = "--ports", required = true, paramLabel = "FIRST:LAST:STEP", converter = PortRange.Converter.class,
      description = "server ports, e.g. 2000:64000:2000")
  PortRange ports;

  @Mixin PortBlockOption block;

  @Option(names = "--connections", paramLabel = "N",
      description = "a cap: connections to open at most (default: none, climb until something else ends it)")
  Long cap;

  @Option(names = "--source", split = ",", paramLabel = "ADDR",
      description = "local addresses to connect from, round-robin (default: the kernel's choice)")
  List<InetAddress> sources = new ArrayList<>();

  @Option(names = "--in-flight", defaultValue = "1000", paramLabel = "N",
      description = "connects in progress at most (default: ${DEFAULT-VALUE})")
  int inFlight;

  @Option(names = "--hold", paramLabel = "DURATION", converter = DurationText.Converter.class,
      description = "how long to hold once the climb has ended, e.g. 70s, 2m (default: until --duration or "
          + "SIGTERM/SIGINT)")
  Duration hold;

  @Option(names = "--duration", paramLabel = "DURATION", converter = DurationText.Converter.class,
      description = "the whole run at most, climb and hold; a climb still rising then ends as time_up "
          + "(default: none)")
  Duration duration;

  @Option(names = "--connect-timeout", defaultValue = "10s", paramLabel = "DURATION",
      converter = DurationText.Converter.class,
      description = "a connect not finished by then counts as failed: a SYN timeout (default: ${DEFAULT-VALUE})")
  Duration connectTimeout;

  @Option(names = "--max-failures", defaultValue = "1000", paramLabel = "N",
      description = "failed connects in a row (no success between) that end the climb (default: ${DEFAULT-VALUE})")
  long maxFailures;

  @Option(names = "--stall", defaultValue = "30s", paramLabel = "DURATION", converter = DurationText.Converter.class,
      description = "no new peak for this long ends the climb: the count stopped rising (default: ${DEFAULT-VALUE})")
  Duration stall;

  @Override
  public Integer call() {
    if ((cap != null && cap < 1) || inFlight < 1 || maxFailures < 1 || connectTimeout.isZero() || stall.isZero()
        || (duration != null && duration.isZero())) {
      throw new ParameterException(spec.commandLine(), "--connections, --in-flight and --max-failures must be at "
          + "least 1, --connect-timeout, --stall and --duration more than 0");
    }
    PortSet portSet = block.ports(ports, spec);
    ClientSettings settings = new ClientSettings(server, portSet, sources, cap, inFlight, hold, duration,
        connectTimeout, maxFailures, stall);
    ConnectionClient client = new ConnectionClient(settings, spec.commandLine().getOut());
    try (StopSignals signals = new StopSignals(client::stop)) {
      client.run();
    }
    return 0;
  }
}
