package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.collector.ToolOutput;
import io.netpulse.testbed.netns.NetHost;
import io.netpulse.launcher.plan.HostSpec;
import io.netpulse.launcher.procedure.RemoteCommand;
import io.netpulse.launcher.remote.RemoteHosts;
import io.netpulse.launcher.remote.RemoteProcess;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 13: seed 000's 256 TCP_CRR instances start and finish every repetition on a saturated host. Both test
 * hosts' sshd are confined to one core with taskset, so every netserver and netperf (which inherit it) and every
 * SSH session share that core: started one SSH channel per instance, an 8-stream run failed every repetition there
 * ({@code netperf#5 printed no PID within 15000 ms}).
 */
@Tag("exclusive") // pins CPUs and loads the test hosts on purpose: runs alone (cli/pom.xml)
@Tag("root")
class StartAtScaleTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();
  private static final int STREAMS = 256;

  static {
    // how far apart each batch's instances passed the start barrier (host uptime stamps), for the output below;
    // takes effect when this class is the first in its JVM to log
    System.setProperty("org.slf4j.simpleLogger.log.io.netpulse.launcher.run.BatchStarts", "debug");
  }

  /** The first repetition and one after it: the second starts on hosts the first has just loaded (TIME_WAIT, exits). */
  private static final int REPETITIONS = 2;

  @TempDir Path dir;

  @Test
  void twoHundredFiftySixCrrInstancesOnOneCoreCompleteEveryRepetition() throws Exception {
    int cpu = Cpus.count() - 1;
    for (NetHost host : List.of(HOSTS.sut(), HOSTS.peer())) {
      Cpus.pinNamespace(host, String.valueOf(cpu)); // its sshd, which TestHosts started for this class
    }
    assertStartedOverSshRunOn(cpu);
    System.out.println("SCALE load before: " + loadAverage());
    SharedPipeline pipeline = SharedPipeline.get();
    Path plan = TestPlans.write(dir, HOSTS, "scale-crr", "repetitions: " + REPETITIONS
            + "\nstop: fixed\nwarmup: 2s\nprepare: { nofile: 16384 }",
        "{ type: new_connections, streams: " + STREAMS + ", port: 9001, duration: 5s }");
    RunEndToEndTest.Run r = RunEndToEndTest.run(plan, pipeline.runArgs());
    System.out.println("SCALE load after: " + loadAverage());
    r.stderr().lines().filter(l -> l.contains("released, started within") || l.contains("apart"))
        .forEach(l -> System.out.println("SCALE barrier: " + l));
    assertThat(r.exit()).as(r.stderr()).isZero();
    JsonNode entry = Json.entry(r.stdout(), "new_connections", "connections_per_s");
    assertThat(entry.path("failedRepetitions").size()).as(entry.toString()).isZero();
    assertThat(entry.path("runs")).as(entry.toString()).hasSize(REPETITIONS);
    assertThat(entry.path("mean").asDouble()).isPositive();

    List<String> runIds = new ArrayList<>();
    entry.path("runIds").forEach(n -> runIds.add(n.asText()));
    List<ToolOutput> outputs = TopicReader.toolOutputs(pipeline.bootstrapServers(), runIds, REPETITIONS * STREAMS);
    Map<String, List<ToolOutput>> byRun = new TreeMap<>();
    outputs.stream().filter(o -> "netperf".equals(o.tool()))
        .forEach(o -> byRun.computeIfAbsent(o.run(), k -> new ArrayList<>()).add(o));
    assertThat(byRun.keySet()).containsExactlyInAnyOrderElementsOf(runIds);
    for (var e : byRun.entrySet()) {
      List<ToolOutput> run = e.getValue();
      assertThat(run).as(e.getKey()).hasSize(STREAMS);
      assertThat(run).as(e.getKey()).allSatisfy(o -> assertThat(o.exit()).as(o.stderr()).isZero());
      assertThat(run.stream().map(ToolOutput::instance).distinct()).hasSize(STREAMS);
      long first = run.stream().mapToLong(ToolOutput::started).min().orElseThrow();
      long last = run.stream().mapToLong(ToolOutput::started).max().orElseThrow();
      List<String> stdouts = run.stream().map(ToolOutput::stdout).toList();
      System.out.printf(Locale.ROOT, "SCALE %s: %d netperf ended with exit 0; began within %s ms by netperf's"
          + " clock (their start lines arrived here within %d ms); summed by hand %.1f connections/s%n", e.getKey(),
          run.size(), NewConnectionsFidelityTest.interimStartSpanMillis(stdouts), last - first,
          ByHand.transRateSum(stdouts));
    }
    System.out.println("SCALE result: " + entry);
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  /** A process started over SSH on each host is allowed only {@code cpu}: the confinement reaches the tools. */
  private static void assertStartedOverSshRunOn(int cpu) throws Exception {
    List<HostSpec> specs = new ArrayList<>();
    for (NetHost h : List.of(HOSTS.sut(), HOSTS.peer())) {
      specs.add(new HostSpec(h.name(), h.address(), HOSTS.user(), TestHosts.SSH_PORT, HOSTS.identity(),
          HOSTS.knownHosts(), false, null));
    }
    try (RemoteHosts hosts = RemoteHosts.connect(specs, Duration.ofSeconds(10))) {
      for (NetHost h : List.of(HOSTS.sut(), HOSTS.peer())) {
        RemoteProcess sleep = hosts.host(h.name()).start("probe", RemoteCommand.of("sleep", "1000"), null);
        String status = Files.readString(Path.of("/proc", String.valueOf(sleep.pid()), "status"));
        assertThat(status).as("started over SSH in " + h.name()).contains("Cpus_allowed_list:\t" + cpu + "\n");
        sleep.stop(Duration.ofSeconds(2));
      }
    }
  }

  private static String loadAverage() throws Exception {
    return Files.readString(Path.of("/proc/loadavg")).strip();
  }

  /** The {@code --format json} entry of one test and metric. */
  private static final class Json {
    static JsonNode entry(String stdout, String test, String metric) throws Exception {
      for (JsonNode n : io.netpulse.common.json.Json.mapper().readTree(stdout)) {
        if (test.equals(n.path("test").asText()) && metric.equals(n.path("metric").asText())) {
          return n;
        }
      }
      throw new AssertionError("no " + test + "/" + metric + " in " + stdout);
    }
  }
}
