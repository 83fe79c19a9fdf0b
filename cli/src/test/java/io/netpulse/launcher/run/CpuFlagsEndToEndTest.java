package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import io.netpulse.cli.CliRun;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real {@code netpulse run} on the namespace test hosts with a busy loop pinned to cpu1, started and stopped here
 * by PID inside the SUT's namespace: each repetition records the SUT's and the client's CPU use, is flagged
 * {@code cpu_saturated} (cpu1 full all the window) and {@code shared_with_netpulse} (namespaces on this machine share
 * its kernel's boot id: the pipeline runs on the test hosts' CPUs), in the JSON output and in {@code netpulse report}.
 */
@Tag("root")
class CpuFlagsEndToEndTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  @TempDir Path dir;

  @Test
  @Tag("exclusive") // loads a core on purpose: alone, so that no other test's figures suffer from it (cli/pom.xml)
  void aCpuBurnerOnTheSutAndTheSharedMachineAreFlaggedInTheJsonAndTheReport() throws Exception {
    assumeThat(Runtime.getRuntime().availableProcessors()).as("a second CPU to pin the busy loop to")
        .isGreaterThanOrEqualTo(2);
    Path plan = TestPlans.write(dir, HOSTS, "e2e-cpu", """
        repetitions: 2
        stop: fixed
        warmup: 1s""",
        "{ type: rx_pps, tool: iperf3, streams: 1, rate: 1M, duration: 6s }");
    Process burner = new ProcessBuilder("ip", "netns", "exec", HOSTS.sut().namespace(), "taskset", "-c", "1",
        "sh", "-c", "while :; do :; done").redirectErrorStream(true).start(); // ip and taskset exec: one PID
    SharedPipeline pipeline = SharedPipeline.get(); // the exclusive JVM's: StartAtScaleTest's too
    RunEndToEndTest.Run run;
    try {
      run = RunEndToEndTest.run(plan, pipeline.runArgs());
    } finally {
      burner.destroyForcibly();
      assertThat(burner.waitFor(10, TimeUnit.SECONDS)).as("busy loop " + burner.pid() + " stopped").isTrue();
    }
    assertThat(run.exit()).as(run.stderr()).isZero();
    assertThat(run.stderr()).contains("hosts peer, sut are the machine running netpulse (same kernel boot id)");

    JsonNode result = Json.mapper().readTree(run.stdout()).get(0);
    assertThat(result.path("metric").asText()).isEqualTo("rx_pps");
    JsonNode reps = result.path("repetitions");
    assertThat(reps).hasSize(2);
    for (JsonNode rep : reps) {
      assertThat(flags(rep)).as(rep.toString()).containsExactly("cpu_saturated", "shared_with_netpulse");
      assertThat(rep.path("sharedWithNetpulse")).extracting(JsonNode::asText).containsExactly("sut", "peer");
      JsonNode cpu = rep.path("cpu");
      assertThat(cpu).extracting(c -> c.path("host").asText()).containsExactly("sut", "peer");
      JsonNode sut = cpu.get(0);
      assertThat(sut.path("saturated").asBoolean()).as(sut.toString()).isTrue();
      assertThat(sut.path("seconds").asInt()).as(sut.toString()).isPositive();
      // the busy loop's core: at the limit in at least half the window's seconds, whatever the rest of the machine did
      JsonNode cpu1 = null;
      for (JsonNode c : sut.path("cpus")) {
        cpu1 = c.path("cpu").asText().equals("cpu1") ? c : cpu1;
      }
      assertThat(cpu1).as(sut.toString()).isNotNull();
      assertThat(cpu1.path("busyMeanPct").asDouble()).as(sut.toString()).isGreaterThanOrEqualTo(95.0);
      assertThat(2 * cpu1.path("secondsAtLimit").asInt()).as(sut.toString())
          .isGreaterThanOrEqualTo(sut.path("seconds").asInt());
      assertThat(sut.path("saturation").asText()).contains("at least 95 % busy");
    }

    String data = "--bootstrap-servers=" + pipeline.bootstrapServers();
    CliRun md = CliRun.of("report", plan.toString(), "--format", "md", data);
    assertThat(md.exit()).as(md.err()).isZero();
    String row = md.out().lines().filter(l -> l.startsWith("| rx_pps | 1 |")).findFirst().orElse("");
    assertThat(row).as(md.out()).contains("FLAGGED: CPU saturated on sut: ")
        .contains("sut, peer are the machine running netpulse").contains("CPU over the measuring window: sut ");
    Path html = dir.resolve("r.html");
    CliRun h = CliRun.of("report", "e2e-cpu", "--output", html.toString(), data);
    assertThat(h.exit()).as(h.err()).isZero();
    assertThat(Files.readString(html)).contains("<p class=\"meta cpu flagged\">repetition 2: FLAGGED: CPU saturated "
        + "on sut: ");
    System.out.println(md.out()); // the report as a user reads it, in the test's output
    RunEndToEndTest.assertNothingLeft(HOSTS);
    assertThat(cpuSamplersRunning()).as("CPU samplers left running").isEmpty();
  }

  /** Processes running the CPU sampler's script (sh, with /proc/stat in its text), anywhere on this machine. */
  private static List<String> cpuSamplersRunning() throws Exception {
    List<String> found = new ArrayList<>();
    try (var procs = Files.list(Path.of("/proc"))) {
      for (Path p : procs.filter(x -> x.getFileName().toString().matches("\\d+")).toList()) {
        try {
          String cmdline = new String(Files.readAllBytes(p.resolve("cmdline")), java.nio.charset.StandardCharsets.UTF_8)
              .replace('\0', ' ');
          if (cmdline.contains("grep '^cpu' /proc/stat")) {
            found.add(p.getFileName() + ": " + cmdline);
          }
        } catch (java.io.IOException gone) {
          // ended meanwhile
        }
      }
    }
    return found;
  }

  private static List<String> flags(JsonNode rep) {
    List<String> out = new ArrayList<>();
    rep.path("flags").forEach(f -> out.add(f.asText()));
    return out;
  }
}
