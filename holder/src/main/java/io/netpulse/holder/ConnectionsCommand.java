package io.netpulse.holder;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code netpulse connections server|client}: the concurrent-connections tool run on the test hosts. */
@Command(name = "connections", mixinStandardHelpOptions = true,
    description = {"Open and hold many TCP connections (seed 000's c1000k test): 'server' listens on a range of "
        + "ports and holds what it accepts, 'client' opens connections to it and holds them.",
        "Progress: one 'connections: key=value ...' line per second on stdout, a 'connections: climb ...' line "
            + "saying what ended the climb, a 'connections: summary ...' line at exit. Read the result with "
            + "'ss -s' on the server host."},
    footer = {"", "Exit codes: 0 done (hold or duration over, or SIGTERM/SIGINT), 2 bad usage, port in use, a "
        + "source address not on this host, or no connection possible."},
    subcommands = {ConnectionsServerCommand.class, ConnectionsClientCommand.class})
public final class ConnectionsCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "connections needs a subcommand: server or client");
  }
}
