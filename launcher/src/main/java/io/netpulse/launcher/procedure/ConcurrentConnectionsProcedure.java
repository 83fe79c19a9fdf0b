package io.netpulse.launcher.procedure;

import io.netpulse.common.Units;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.plan.Tool;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 000 concurrent connections: servers listening on ports 2000..64000 step 2000 on the SUT,
 * clients on the peer(s) opening and holding connections, {@code ss -s} every second on the SUT;
 * the result is the largest TCP estab count once it stops rising.
 *
 * <p>Tool {@code netpulse} (default): netpulse's own connection holder from the same jar, one
 * server process for all ports, one client per client host with its share of {@code target}.
 * Tool {@code c1000k}: the seed's {@code ./server PORT} per port and {@code ./client SUT PORT} per port
 * from {@code c1000k_dir}. With {@code prepare.nofile} the processes start under
 * {@code prlimit --nofile=N:N}, which raises the limit for them only.
 */
final class ConcurrentConnectionsProcedure implements Procedure {

  /** Where the SSH layer puts netpulse's jar on a host, relative to the login directory. */
  public static final String REMOTE_JAR = ".netpulse/netpulse.jar";

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    List<Integer> ports = new ArrayList<>();
    for (int i = 0; i < t.listeners(); i++) {
      ports.add(c.port(i * t.portStep()));
    }
    String sut = c.address(t.sut());
    List<HostCommand> servers = new ArrayList<>();
    List<HostCommand> clients = new ArrayList<>();
    Long nofile = c.plan().prepare().nofile();
    if (t.tool() == Tool.C1000K) {
      for (int i = 0; i < ports.size(); i++) {
        servers.add(HostCommand.server(t.sut(), "c1000k", i, limited(nofile, t.c1000kDir() + "/server", ports.get(i))));
      }
      int instance = 0;
      for (String client : t.clients()) {
        for (int port : ports) {
          clients.add(HostCommand.holdingClient(client, "c1000k", instance++,
              limited(nofile, t.c1000kDir() + "/client", sut, port)));
        }
      }
    } else {
      String portSpec = ports.get(0) + ":" + ports.get(ports.size() - 1) + ":" + t.portStep();
      servers.add(HostCommand.server(t.sut(), "netpulse-connections", 0, limited(nofile, java(c, t.sut()),
          "-jar", REMOTE_JAR, "connections", "server", "--ports", portSpec)));
      long perClient = (t.target() + t.clients().size() - 1) / t.clients().size();
      int instance = 0;
      for (String client : t.clients()) {
        clients.add(HostCommand.client(client, "netpulse-connections", instance++, limited(nofile, java(c, client),
            "-jar", REMOTE_JAR, "connections", "client", "--server", sut, "--ports", portSpec,
            "--connections", perClient, "--hold", c.sampledSeconds() + "s")));
      }
    }
    return new TestProcedure(t, ports.size(), c.sampledSeconds(),
        List.of(HostCommand.sampler(t.sut(), "ss-summary", ToolCommands.ssSummaryEverySecond())), servers, clients,
        List.of(new ResultRule("tcp_estab", Units.CONNECTIONS, "ss-summary", "tcp_estab", t.sut(), null,
            Combine.MAX_OF_SAMPLES)),
        null);
  }

  private static String java(ProcedureContext c, String host) {
    String java = c.host(host).java();
    return java == null ? "java" : java;
  }

  private static RemoteCommand limited(Long nofile, String program, Object... args) {
    if (nofile == null) {
      return RemoteCommand.of(program, args);
    }
    Object[] all = new Object[args.length + 2];
    all[0] = "--nofile=" + nofile + ":" + nofile;
    all[1] = program;
    System.arraycopy(args, 0, all, 2, args.length);
    return RemoteCommand.of("prlimit", all);
  }

}
