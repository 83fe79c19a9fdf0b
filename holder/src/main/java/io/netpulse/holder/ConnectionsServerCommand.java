package io.netpulse.holder;

import java.net.InetAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(name = "server", mixinStandardHelpOptions = true,
    description = {"Listen on every port of FIRST:LAST:STEP (with --block, on blocks of consecutive ports from "
        + "each), accept, and hold connections until SIGTERM/SIGINT.",
        "Out of open files it keeps what it holds and prints 'connections: climb ended_by=sut_open_files side=sut "
            + "open=N | DETAIL' once."})
public final class ConnectionsServerCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(names = "--ports", required = true, paramLabel = "FIRST:LAST:STEP", converter = PortRange.Converter.class,
      description = "ports to listen on, e.g. 2000:64000:2000 (32 ports), 5001:5004 or 5001")
  PortRange ports;

  @Option(names = "--block", defaultValue = "1", paramLabel = "N",
      description = "each port of --ports starts a block of N consecutive ports, as c1000k's server listens on "
          + "PORT..PORT+99 (default: ${DEFAULT-VALUE})")
  int block;

  @Option(names = "--bind", paramLabel = "ADDR", description = "local address to listen on (default: all)")
  InetAddress bind;

  @Override
  public Integer call() {
    PortSet portSet;
    try {
      portSet = new PortSet(ports, block);
    } catch (IllegalArgumentException e) {
      throw new ParameterException(spec.commandLine(), "--ports with --block: " + e.getMessage());
    }
    ConnectionServer server = new ConnectionServer(bind, portSet, spec.commandLine().getOut());
    server.open();
    try (StopSignals signals = new StopSignals(server::stop)) {
      server.run();
    }
    return 0;
  }
}
