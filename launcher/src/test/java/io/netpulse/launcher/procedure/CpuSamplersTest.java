package io.netpulse.launcher.procedure;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.tools.Sampler;
import io.netpulse.common.event.Sample;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.proc.ProcStatParser;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every test records the CPU use of the SUT and of every host it starts something on: one {@code /proc/stat} sampler
 * per host, started with the test's own samplers, the collector's proc-stat text.
 */
@Tag("unit")
class CpuSamplersTest {

  private static final String CPU = RemoteCommand.of("sh", "-c", Sampler.PROC_STAT.shellCommand()).render();

  @Test
  void everyHostTheTestUsesRunsOneCpuSamplerTheSutFirst() throws Exception {
    TestProcedure rx = ProceduresTest.only("{ type: rx_bandwidth, streams: 3, clients: [peer, aux1], sar: sut }");
    assertThat(rx.cpuSamplers()).extracting(HostCommand::host).containsExactly("sut", "peer", "aux1");
    assertThat(rx.cpuSamplers()).allSatisfy(c -> {
      assertThat(c.role()).isEqualTo(Role.SAMPLER);
      assertThat(c.tool()).isEqualTo("proc-stat"); // the source the processor parses its lines with
      assertThat(c.command().render()).isEqualTo(CPU);
    });
    // the test's own samplers stay as the seeds' procedures have them; the CPU samplers start with them
    assertThat(rx.samplers()).extracting(HostCommand::tool).containsExactly(Sources.SAR_DEV);
    assertThat(rx.allSamplers()).extracting(c -> c.host() + "/" + c.tool())
        .containsExactly("sut/sar-dev", "sut/proc-stat", "peer/proc-stat", "aux1/proc-stat");
    assertThat(rx.commands().subList(0, 4)).isEqualTo(rx.allSamplers());
    // a test whose SUT sends (tx): the clients' hosts are the servers' here; still each host once
    TestProcedure tx = ProceduresTest.only("{ type: tx_pps, tool: netperf, streams: 4, clients: [peer, aux1] }");
    assertThat(tx.cpuSamplers()).extracting(HostCommand::host).containsExactly("sut", "peer", "aux1");
    TestProcedure latency = ProceduresTest.only("{ type: latency }");
    assertThat(latency.cpuSamplers()).extracting(HostCommand::host).containsExactly("sut", "peer");
  }

  /** The sampler's own text, run here, read by the processor's parser: each CPU's use, every second. */
  @Test
  void theSamplerRunsAndItsLinesParseIntoEachCpusUse() throws Exception {
    TestProcedure p = ProceduresTest.only("{ type: latency }");
    Process sampler = new ProcessBuilder(p.cpuSamplers().get(0).command().argv()).redirectErrorStream(true).start();
    List<String> text = new ArrayList<>();
    try (BufferedReader out = new BufferedReader(new InputStreamReader(sampler.getInputStream(),
        StandardCharsets.UTF_8))) {
      long until = System.currentTimeMillis() + 20_000; // liveness only: four whole snapshots, whenever they come
      long snapshots = 0;
      String line;
      while (System.currentTimeMillis() < until && (line = out.readLine()) != null) {
        if (line.startsWith("cpu ")) {
          if (snapshots == 4) {
            break; // the fifth begins: the fourth is whole
          }
          text.add("# " + System.currentTimeMillis()); // read time, as the launcher stamps a streamed line
          snapshots++;
        }
        text.add(line);
      }
    } finally {
      sampler.descendants().forEach(ProcessHandle::destroy);
      sampler.destroy();
    }
    ParseResult r = new ProcStatParser().parse(text, ParseContext.streamed(System.currentTimeMillis()));
    assertThat(r.errors()).isEmpty();
    // as many CPUs as the host's /proc/stat lists (a JVM's availableProcessors may be a container's share)
    int cpus = (int) text.stream().filter(l -> l.matches("cpu\\d+ .*")).count() / 4;
    // three intervals, all CPUs and each one, three metrics; two when the sampler started less than half a second
    // before a wall-clock second (it reads at its start and then on each second: the second reading only then gives
    // nothing, ProcReadings.MIN_INTERVAL_MS)
    List<Long> times = text.stream().filter(l -> l.startsWith("# ")).map(l -> Long.parseLong(l.substring(2))).toList();
    int intervals = times.get(1) - times.get(0) < io.netpulse.tools.proc.ProcReadings.MIN_INTERVAL_MS ? 2 : 3;
    assertThat(r.samples()).as(String.join("\n", text)).hasSize(intervals * (cpus + 1) * 3);
    assertThat(r.samples()).extracting(Sample::iface).contains("all", "cpu0");
    assertThat(r.samples()).allSatisfy(s -> assertThat(s.value()).isBetween(0.0, 100.0));
  }
}
