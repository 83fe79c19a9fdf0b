package io.netpulse.launcher.procedure;

/**
 * One process to start on one host. {@code stage}: clients of stage 1 run together, stage 2 after
 * stage 1 has ended (qperf, then ping, as seed 000 does). {@code instance} numbers processes of the
 * same tool and role from 0, which the results use to sum or average per instance. {@code untilStopped}: a
 * client that never ends by itself (c1000k's holds its connections forever), so its stage lasts the test's
 * time and it is then stopped like a server.
 */
public record HostCommand(String host, Role role, String tool, int instance, int stage, RemoteCommand command,
    boolean untilStopped) {

  public static HostCommand sampler(String host, String tool, RemoteCommand command) {
    return new HostCommand(host, Role.SAMPLER, tool, 0, 0, command, true);
  }

  public static HostCommand server(String host, String tool, int instance, RemoteCommand command) {
    return new HostCommand(host, Role.SERVER, tool, instance, 0, command, true);
  }

  public static HostCommand client(String host, String tool, int instance, RemoteCommand command) {
    return new HostCommand(host, Role.CLIENT, tool, instance, 1, command, false);
  }

  /** A client that runs until it is stopped. */
  public static HostCommand holdingClient(String host, String tool, int instance, RemoteCommand command) {
    return new HostCommand(host, Role.CLIENT, tool, instance, 1, command, true);
  }

  public HostCommand inStage(int stage) {
    return new HostCommand(host, role, tool, instance, stage, command, untilStopped);
  }
}
