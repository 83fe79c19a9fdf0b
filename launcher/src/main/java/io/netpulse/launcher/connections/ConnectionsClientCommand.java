package io.netpulse.launcher.connections;

import io.netpulse.launcher.plan.Durations;
import java.net.InetAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.TypeConversionException;

@Command(name = "client", mixinStandardHelpOptions = true,
    description = {"Open --connections TCP connections to the server's ports (round-robin), a bounded number "
        + "at a time, and hold them for --hold (from when opening ends) or until SIGTERM/SIGINT; then close "
        + "them all and exit 0.",
        "Each source address can reach about one ephemeral range (~28k) of connections per server port."})
public final class ConnectionsClientCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--server", required = true, paramLabel = "ADDR", description = "the server's address")
  InetAddress server;

  @Option(names = "--ports", required = true, paramLabel = "FIRST:LAST:STEP", converter = PortRange.Converter.class,
      description = "server ports, e.g. 2000:64000:2000")
  PortRange ports;

  @Option(names = "--connections", required = true, paramLabel = "N", description = "connections to open and hold")
  long connections;

  @Option(names = "--source", split = ",", paramLabel = "ADDR",
      description = "local addresses to connect from, round-robin (default: the kernel's choice)")
  List<InetAddress> sources = new ArrayList<>();

  @Option(names = "--in-flight", defaultValue = "1000", paramLabel = "N",
      description = "connects in progress at most (default: ${DEFAULT-VALUE})")
  int inFlight;

  @Option(names = "--hold", paramLabel = "DURATION", converter = DurationConverter.class,
      description = "how long to hold once opening is over, e.g. 70s, 2m (default: until SIGTERM/SIGINT)")
  Duration hold;

  @Option(names = "--connect-timeout", defaultValue = "10s", paramLabel = "DURATION",
      converter = DurationConverter.class,
      description = "a connect not finished by then counts as failed (default: ${DEFAULT-VALUE})")
  Duration connectTimeout;

  @Option(names = "--max-failures", defaultValue = "1000", paramLabel = "N",
      description = "failed connects after which no more are started; the client then holds what it has "
          + "(default: ${DEFAULT-VALUE})")
  long maxFailures;

  @Override
  public Integer call() {
    if (connections < 1 || inFlight < 1 || maxFailures < 0 || connectTimeout.isZero()) {
      throw new ParameterException(spec.commandLine(), "--connections and --in-flight must be at least 1, "
          + "--max-failures at least 0, --connect-timeout more than 0");
    }
    ConnectionClient client = new ConnectionClient(new ClientSettings(server, ports, sources, connections, inFlight,
        hold, connectTimeout, maxFailures), spec.commandLine().getOut(), spec.commandLine().getErr());
    try (StopSignals signals = new StopSignals(client::stop)) {
      client.run();
    }
    return 0;
  }

  /** Plan-style durations ({@code 70s}, {@code 2m}, {@code 500ms}); a unit is required. */
  public static final class DurationConverter implements ITypeConverter<Duration> {
    @Override
    public Duration convert(String value) {
      Duration d = Durations.parse(value);
      if (d == null) {
        throw new TypeConversionException("'" + value + "' is not a duration such as 70s, 2m or 500ms");
      }
      return d;
    }
  }
}
