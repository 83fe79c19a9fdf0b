package io.netpulse.launcher.procedure;

import java.util.List;

/**
 * One process to start on one host. {@code stage}: clients of stage 1 run together, stage 2 after
 * stage 1 has ended (qperf, then ping, as seed 000 does). {@code instance} numbers processes of the
 * same tool and role from 0, which the results use to sum or average per instance. {@code untilStopped}: a
 * client that never ends by itself (c1000k's holds its connections forever), so its stage lasts the test's
 * time and it is then stopped like a server. {@code readyLine}: a client that floods a path its peers share, and
 * that has set up once its stdout has this text; such clients are started one at a time, each paused until the
 * last has set up (null: released together with the others). {@code runsSeconds}: how long the client runs by itself
 * when that is not the test's time (qperf runs each of its tests for -t seconds, ping one reply a second); 0: the
 * test's time. {@code listensOn}: the TCP/UDP ports a server listens on (none for other roles), so that the launcher
 * can wait out what an earlier test left on them.
 */
public record HostCommand(String host, Role role, String tool, int instance, int stage, RemoteCommand command,
    boolean untilStopped, String readyLine, long runsSeconds, List<Integer> listensOn) {

  public HostCommand {
    listensOn = List.copyOf(listensOn);
  }

  public static HostCommand sampler(String host, String tool, RemoteCommand command) {
    return new HostCommand(host, Role.SAMPLER, tool, 0, 0, command, true, null, 0, List.of());
  }

  /** A server listening on {@code port}. */
  public static HostCommand server(String host, String tool, int instance, int port, RemoteCommand command) {
    return server(host, tool, instance, List.of(port), command);
  }

  /** A server listening on each of {@code ports} (the connection holder's blocks). */
  public static HostCommand server(String host, String tool, int instance, List<Integer> ports,
      RemoteCommand command) {
    return new HostCommand(host, Role.SERVER, tool, instance, 0, command, true, null, 0, ports);
  }

  public static HostCommand client(String host, String tool, int instance, RemoteCommand command) {
    return new HostCommand(host, Role.CLIENT, tool, instance, 1, command, false, null, 0, List.of());
  }

  /**
   * A client that floods a path shared with the other clients (more packets than a capped NIC lets through) and has
   * set up once {@code readyLine} is on its stdout.
   */
  public static HostCommand floodingClient(String host, String tool, int instance, RemoteCommand command,
      String readyLine) {
    return new HostCommand(host, Role.CLIENT, tool, instance, 1, command, false, readyLine, 0, List.of());
  }

  /** A client that runs until it is stopped. */
  public static HostCommand holdingClient(String host, String tool, int instance, RemoteCommand command) {
    return new HostCommand(host, Role.CLIENT, tool, instance, 1, command, true, null, 0, List.of());
  }

  public HostCommand inStage(int stage) {
    return new HostCommand(host, role, tool, instance, stage, command, untilStopped, readyLine, runsSeconds,
        listensOn);
  }

  /** This client, running {@code seconds} by itself rather than the test's time. */
  public HostCommand runsFor(long seconds) {
    return new HostCommand(host, role, tool, instance, stage, command, untilStopped, readyLine, seconds, listensOn);
  }
}
