package io.netpulse.launcher.procedure;

import io.netpulse.tools.Sampler;
import io.netpulse.common.Units;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.launcher.plan.Tool;
import java.util.ArrayList;
import java.util.List;

/**
 * Seed 000 concurrent connections: servers listening on c1000k's ports on the SUT (base ports 2000..64000 step
 * 2000, 100 consecutive ports from each: 3,200), clients on the client hosts opening and holding connections,
 * {@code ss -s} every second on the SUT; the result is the largest TCP estab count.
 *
 * <p>Tool {@code netpulse} (default): netpulse's own connection holder (module holder: a jar of its own, under 1 MiB,
 * that the launcher puts on the hosts), one server process for all ports, one client per client host. Like c1000k's
 * client it climbs until something stops it; {@code target} is only an optional cap, split over the clients. Each
 * client connects from its host's {@code source_addresses} (each worth one ephemeral port range per server port)
 * and says what ended its climb, which the launcher reads back (see {@code run.Climbs}). Tool {@code c1000k}: the
 * seed's {@code ./server PORT} per base port and {@code ./client SUT PORT} per base port from {@code c1000k_dir}.
 * With {@code prepare.nofile} the processes start under {@code prlimit --nofile=N:N}, which raises the limit for
 * them only.
 */
final class ConcurrentConnectionsProcedure implements Procedure {

  /** Where remote.JarShipper puts the connection holder's jar on a host, relative to the login directory. */
  public static final String REMOTE_JAR = ".netpulse/netpulse-holder.jar";
  /** The tool name of netpulse's connection holder in labels. */
  private static final String TOOL = "netpulse-connections";

  @Override
  public TestProcedure build(ProcedureContext c) {
    TestSpec t = c.test();
    List<Integer> bases = new ArrayList<>();
    for (int i = 0; i < t.listeners(); i++) {
      bases.add(c.port(i * t.portStep()));
    }
    c.port((t.listeners() - 1) * t.portStep() + t.portsPerListener() - 1); // the last port of the last block
    String sut = c.address(t.sut());
    List<HostCommand> servers = new ArrayList<>();
    List<HostCommand> clients = new ArrayList<>();
    Long nofile = c.plan().prepare().nofile();
    if (t.tool() == Tool.C1000K) {
      for (int i = 0; i < bases.size(); i++) {
        servers.add(HostCommand.server(t.sut(), "c1000k", i, block(bases.get(i), t.portsPerListener()),
            limited(nofile, t.c1000kDir() + "/server", bases.get(i))));
      }
      int instance = 0;
      for (String client : t.clients()) {
        for (int port : bases) {
          clients.add(HostCommand.holdingClient(client, "c1000k", instance++,
              limited(nofile, t.c1000kDir() + "/client", sut, port)));
        }
      }
    } else {
      String portSpec = bases.get(0) + ":" + bases.get(bases.size() - 1) + ":" + t.portStep();
      List<Integer> ports = new ArrayList<>();
      bases.forEach(base -> ports.addAll(block(base, t.portsPerListener())));
      servers.add(HostCommand.server(t.sut(), TOOL, 0, ports, limited(nofile, java(c, t.sut()),
          "-jar", REMOTE_JAR, "server", "--ports", portSpec, "--block", t.portsPerListener())));
      int instance = 0;
      for (String client : t.clients()) {
        List<Object> args = new ArrayList<>(List.of("-jar", REMOTE_JAR, "client", "--server", sut,
            "--ports", portSpec, "--block", t.portsPerListener()));
        if (t.target() != null) {
          args.addAll(List.of("--connections", (t.target() + t.clients().size() - 1) / t.clients().size()));
        }
        List<String> sources = c.host(client).sourceAddresses();
        if (!sources.isEmpty()) {
          args.addAll(List.of("--source", String.join(",", sources)));
        }
        // the whole run: a climb still rising when the test's time is up ends as time_up, which says so
        args.addAll(List.of("--duration", c.sampledSeconds() + "s"));
        clients.add(HostCommand.client(client, TOOL, instance++, limited(nofile, java(c, client), args.toArray())));
      }
    }
    return new TestProcedure(t, bases.size(), c.sampledSeconds(),
        List.of(ToolCommands.sampler(t.sut(), Sampler.SS_SUMMARY)), servers, clients,
        c.results(null),
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


  /** The {@code n} consecutive ports from {@code base} one server listens on. */
  private static List<Integer> block(int base, int n) {
    return java.util.stream.IntStream.range(base, base + n).boxed().toList();
  }
}
