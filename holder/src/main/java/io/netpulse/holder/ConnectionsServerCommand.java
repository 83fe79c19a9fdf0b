package io.netpulse.holder;

import java.net.InetAddress;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
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

  @Mixin PortBlockOption block;

  @Option(names = "--bind", paramLabel = "ADDR", description = "local address to listen on (default: all)")
  InetAddress bind;

  @Override
  public Integer call() {
    PortSet portSet = block.ports(ports, spec);
    ConnectionServer server = new ConnectionServer(bind, portSet, spec.commandLine().getOut());
    server.open();
    try (StopSignals signals = new StopSignals(server::stop)) {
      server.run();
    }
    return 0;
  }
}
