package io.netpulse.launcher.procedure;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.launcher.plan.Plan;
import io.netpulse.launcher.plan.PlanLoader;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The generated command lines run by the real tools, on loopback only (sut 127.0.0.1, peer
 * 127.0.0.2), one second each: proves each tool accepts its argument list as rendered for the
 * shell and prints the lines the parsers read. Every process started here is stopped by its own handle.
 */
@Tag("root")
class LoopbackToolsTest {

  private final List<Process> started = new ArrayList<>();

  /** A test body given the first of 20 ports believed free. */
  private interface OnPorts {
    void run(int base) throws Exception;
  }

  /** Thrown when a server could not bind: another process took the port after {@link #freeBase} looked. */
  private static final class PortTaken extends RuntimeException {
    PortTaken(String message) {
      super(message);
    }
  }

  /**
   * Runs the body on a free run of ports, and on another one when a server found its port taken meanwhile: loopback
   * is shared with everything else on this machine, so "free" can only be checked, not reserved.
   */
  private void onFreePorts(OnPorts body) throws Exception {
    for (int attempt = 1; ; attempt++) {
      try {
        body.run(freeBase());
        return;
      } catch (PortTaken e) {
        if (attempt == 3) {
          throw e;
        }
        stopEverythingStarted();
      }
    }
  }

  /**
   * A random run of 20 ports that nothing listens on (other engineers share this machine), below the ephemeral range:
   * a port there can be taken at any moment as the source port of some connection (the tests' own clients included),
   * which a check for listeners cannot see.
   */
  private static int freeBase() {
    int ephemeralLow = Math.max(11_000, io.netpulse.testbed.embedded.LocalResources.ephemeralLow());
    try {
      for (int attempt = 0; attempt < 50; attempt++) {
        int b = 10_000 + ThreadLocalRandom.current().nextInt(Math.max(1, ephemeralLow - 10_000 - 20));
        boolean free = true;
        for (int port = b; port < b + 20 && free; port++) {
          free = !listening(port);
        }
        if (free) {
          return b;
        }
      }
    } catch (Exception e) {
      throw new IllegalStateException("cannot list listening ports with ss", e);
    }
    throw new IllegalStateException("no free run of 20 ports found");
  }

  @AfterEach
  void stopEverythingStarted() throws InterruptedException {
    List<Process> started = List.copyOf(this.started);
    this.started.clear();
    for (Process p : started) {
      p.destroy();
    }
    for (Process p : started) {
      if (!p.waitFor(3, TimeUnit.SECONDS)) {
        p.destroyForcibly().waitFor(3, TimeUnit.SECONDS);
      }
    }
  }

  private Plan plan(String test) throws Exception {
    return PlanLoader.parse("loopback.yaml", Path.of("/tmp"), """
        name: loopback
        warmup: 0s
        hosts:
          sut:  { address: 127.0.0.1 }
          peer: { address: 127.0.0.2 }
        tests:
          - %s
        """.formatted(test));
  }

  private TestProcedure build(String test) throws Exception {
    Plan p = plan(test);
    return Procedures.build(p, p.tests().get(0), new SutFacts("lo", 2));
  }

  /** {@code exec} so that the process we hold is the tool itself, not a shell around it. */
  private Process start(HostCommand c) throws IOException {
    Process p = new ProcessBuilder("/bin/sh", "-c", "exec " + c.command().render()).redirectErrorStream(true).start();
    started.add(p);
    return p;
  }

  private static boolean listening(int port) throws Exception {
    Process ss = new ProcessBuilder("ss", "-Hltun", "sport = :" + port).redirectErrorStream(true).start();
    String out = new String(ss.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    ss.waitFor();
    return !out.isBlank();
  }

  private void startServers(TestProcedure p, int... tcpPorts) throws Exception {
    int first = started.size(); // servers of an earlier procedure (iperf3 -1) may have ended by design
    for (HostCommand c : p.servers()) {
      start(c);
    }
    for (int port : tcpPorts) {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
      while (!listening(port)) {
        for (Process server : started.subList(first, started.size())) {
          if (!server.isAlive()) {
            String out = new String(server.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            // iperf says so; netserver only "Unable to start netserver with ... port N"
            if (out.contains("Address already in use") || out.contains("Unable to start netserver")) {
              throw new PortTaken("port taken meanwhile: " + out);
            }
            throw new AssertionError("a server ended early, exit " + server.exitValue() + ": " + out);
          }
        }
        assertThat(System.nanoTime()).as("server on port %d listening", port).isLessThan(deadline);
        Thread.sleep(50);
      }
    }
  }

  /** Runs the clients stage by stage; returns each client's output, in order. Asserts exit 0. */
  private List<String> runClients(TestProcedure p) throws Exception {
    List<String> outputs = new ArrayList<>();
    int lastStage = p.clients().stream().mapToInt(HostCommand::stage).max().orElse(1);
    for (int stage = 1; stage <= lastStage; stage++) {
      List<Process> running = new ArrayList<>();
      List<HostCommand> commands = new ArrayList<>();
      for (HostCommand c : p.clients()) {
        if (c.stage() == stage) {
          running.add(start(c));
          commands.add(c);
        }
      }
      for (int i = 0; i < running.size(); i++) {
        Process proc = running.get(i);
        String out = new String(proc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(proc.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(proc.exitValue()).as(commands.get(i).command().render() + "\n" + out).isZero();
        outputs.add(out);
      }
    }
    return outputs;
  }

  /** SIGTERM through the handle (Process.destroy would also close the pipe we still want to read). */
  private String stopAndRead(Process p) throws Exception {
    p.toHandle().destroy();
    String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(3, TimeUnit.SECONDS)).isTrue();
    return out;
  }

  @Test
  void latencyQperfAndPing() throws Exception {
    onFreePorts(base -> {
      TestProcedure p = build("{ type: latency, duration: 1s, ping_count: 1, port: " + base + " }");
      startServers(p, base);
      List<String> out = runClients(p);
      assertThat(out.get(0)).contains("tcp_lat:").contains("udp_lat:").contains("latency");
      assertThat(out.get(1)).contains("rtt min/avg/max/mdev");
    });
  }

  @Test
  void latencyQperfLoopsAndPing() throws Exception {
    onFreePorts(base -> {
      TestProcedure p = build("{ type: latency, duration: 1s, ping_count: 1, qperf_loop: true, port: " + base + " }");
      startServers(p, base);
      List<String> out = runClients(p);
      // the plan's stop is steady with the precision criterion: qperf's tests as loops of 1-s tests, here one each
      assertThat(out.get(0)).contains("tcp_lat:").contains("latency").doesNotContain("udp_lat");
      assertThat(out.get(1)).contains("udp_lat:").contains("latency");
      for (int i = 0; i < 2; i++) {
        assertThat(io.netpulse.tools.Parsers.forFormat(p.clients().get(i).tool())
            .parse(out.get(i).lines().toList(), io.netpulse.tools.parse.ParseContext.streamed(0)).samples())
            .as(out.get(i)).singleElement().satisfies(s -> assertThat(s.value()).isPositive());
      }
      assertThat(out.get(2)).contains("rtt min/avg/max/mdev");
    });
  }

  @Test
  void sockperfPingPong() throws Exception {
    onFreePorts(base -> {
      TestProcedure p = build("{ type: sockperf_latency, duration: 1s, port: " + base + " }");
      startServers(p, base);
      assertThat(runClients(p).get(0)).contains("Summary: Latency is").contains("percentile 99.000");
    });
  }

  @Test
  void bandwidthNetperfWithDemoModeAndSar() throws Exception {
    onFreePorts(base -> {
      TestProcedure p = build("{ type: rx_bandwidth, streams: 2, duration: 2s, port: " + base + " }");
      Process sar = start(p.samplers().get(0));
      startServers(p, base, base + 1);
      List<String> out = runClients(p);
      assertThat(out).hasSize(2).allSatisfy(o -> assertThat(o).contains("Interim result:").contains("10^6bits/sec"));
      assertThat(stopAndRead(sar)).contains("IFACE").contains("rxkB/s").containsPattern("\\d\\d:\\d\\d:\\d\\d\\s+lo\\s");
    });
  }

  @Test
  void ppsWithIperf3AndWithNetperf() throws Exception {
    onFreePorts(base -> {
      TestProcedure iperf3 = build("{ type: rx_pps, streams: 2, duration: 1s, port: " + base + " }");
      startServers(iperf3, base, base + 1);
      assertThat(runClients(iperf3)).allSatisfy(o -> assertThat(o).contains("Lost/Total Datagrams"));
      TestProcedure netperf = build("{ type: tx_pps, tool: netperf, streams: 1, duration: 1s, port: " + (base + 10) + " }");
      startServers(netperf, base + 10);
      assertThat(runClients(netperf).get(0)).contains("UDP STREAM TEST").contains("Interim result:");
    });
  }

  @Test
  void newConnectionsAndTcpRr() throws Exception {
    onFreePorts(base -> {
      TestProcedure crr = build("{ type: new_connections, streams: 2, duration: 1s, port: " + base + " }");
      startServers(crr, base, base + 1);
      assertThat(runClients(crr)).allSatisfy(o -> assertThat(o).contains("TCP Connect/Request/Response TEST")
          .contains("Trans/s"));
      TestProcedure rr = build("{ type: tcp_rr, streams: 2, duration: 1s, port: " + (base + 10) + " }");
      startServers(rr, base + 10);
      assertThat(runClients(rr)).hasSize(2).allSatisfy(o -> assertThat(o).contains("TCP REQUEST/RESPONSE TEST"));
    });
  }

  @Test
  void udpStreamLinkTest() throws Exception {
    onFreePorts(base -> {
      TestProcedure p = build("{ type: udp_stream, clients: [peer], message: 1400, duration: 1s, port: " + base + " }");
      startServers(p, base);
      assertThat(runClients(p).get(0)).contains("UDP STREAM TEST").contains("1400");
    });
  }

  @Test
  void iperfBandwidth() throws Exception {
    onFreePorts(base -> {
      TestProcedure p = build("{ type: iperf_bandwidth, duration: 1s, port: " + base + " }");
      startServers(p, base);
      // steady mode (the default): one sum row a second for both streams, in whole kbit/s, which the launcher streams.
      // On a loaded machine the 1 s interval and the end of a 1 s run coincide: iperf 2.1.8 then printed
      // "[SUM-4] 0.0000-1.0006 sec" (CI, 2026-11-30), so neither the count nor the exact end is fixed
      assertThat(runClients(p).get(0)).containsPattern("\\[SUM-\\d+\\] 0\\.0000-1\\.\\d{4} sec +\\d+ KBytes +\\d+ Kbits/sec");
    });
  }

  @Test
  void highPpsSockperfThroughput() throws Exception {
    onFreePorts(base -> {
      TestProcedure p = build("{ type: high_pps, senders: [peer], streams: 1, duration: 1s, port: " + base + " }");
      assertThat(runClients(p).get(0)).contains("Summary: Message Rate is");
    });
  }

  @Test
  void ssSummaryEverySecond() throws Exception {
    onFreePorts(base -> {
      TestProcedure p = build("{ type: concurrent_connections, target: 10, listeners: 1, port: " + base + " }");
      Process ss = start(p.samplers().get(0));
      Thread.sleep(2500); // two summaries are due at 0 s and 1 s; the rest is slack for a loaded machine
      String out = stopAndRead(ss);
      assertThat(out.split("Total:", -1).length - 1).as(out).isGreaterThanOrEqualTo(2);
      assertThat(out).contains("estab");
    });
  }
}
