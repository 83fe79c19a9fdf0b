package io.netpulse.cli.command;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.collector.CollectorMetrics;
import io.netpulse.collector.KafkaLineSink;
import io.netpulse.tools.Sampler;
import io.netpulse.collector.SinkSettings;
import io.netpulse.collector.SourceStats;
import io.netpulse.collector.SshConnection;
import io.netpulse.collector.SshLineSource;
import io.netpulse.collector.SshTarget;
import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testbed.netns.NetHost;
import io.netpulse.testkit.TestHosts;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Benchmarks of the collector (not part of the default test run: the class name does not end in Test). Run with
 * {@code mvn -q -B -o -pl cli -am test -Dtest=CollectorCommandBenchmark -Dsurefire.failIfNoSpecifiedTests=false};
 * figures go to cli/target/collector-bench.txt.
 * <ul>
 *   <li>Agentless CPU: N simulated hosts = N SSH connections to the two test hosts, each running sar -n DEV 1 and
 *   ss -s every second into a real Kafka sink. CPU counted on the collector's threads (samplers' readers, jsch
 *   sessions, Kafka producer), not the in-process broker's. Two baselines measured first in the same run: the same
 *   Kafka sink open with no source (the fixed cost, subtracted to give the cost per host), and OpenSSH clients
 *   reading the same samplers for 10 hosts (what the reading costs without the JVM).</li>
 *   <li>Agent heap: {@code netpulse collector agent} in its own JVM with -Xmx64m; heap in use read from its counters
 *   log every second.</li>
 * </ul>
 */
@Tag("measurement")
class CollectorCommandBenchmark {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();
  private static final Duration WARMUP = Duration.ofSeconds(60);
  private static final Duration MEASURE = Duration.ofSeconds(30);
  private static final Duration WARMUP_AFTER_FIRST = Duration.ofSeconds(20); // same code, JIT warm already
  private static final Duration BASELINE_WARMUP = Duration.ofSeconds(10); // no JIT-heavy code path to warm
  private static final Path REPORT = Path.of("target", "collector-bench.txt");

  @TempDir Path dir;

  @Test
  void agentlessCpuPerSampledHostAtOneHertz() throws Exception {
    Topics topics = Topics.defaults();
    report("--- agentless CPU, run of " + java.time.Instant.now() + " (all figures below measured in this run, "
        + "same broker, " + MEASURE.toSeconds() + " s each)");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0)) {
      kafka.createTopics(topics, 3);
      double idleProducerPct = measureIdleProducer(kafka, topics);
      double sshClientsPct = measureOpenSshClients(10);
      // the shipper's batch linger, before (200 ms) and after, interleaved so that drift on this shared machine shows
      // as spread between the repeats rather than as a difference between the settings
      Duration warmup = WARMUP;
      for (int hosts : new int[] {10, 10, 40}) {
        for (long lingerMs : hosts == 40 ? new long[] {200, 1000} : new long[] {200, 500, 1000}) {
          measureAgentless(kafka, topics, hosts, Duration.ofMillis(lingerMs), warmup, idleProducerPct, sshClientsPct);
          warmup = WARMUP_AFTER_FIRST;
        }
      }
    }
  }

  /**
   * Baseline 1, the collector's fixed cost: the same Kafka sink (producer and shipper thread) open with no source, on
   * the same broker, counted on the same threads as the collector's figure.
   */
  private double measureIdleProducer(EmbeddedKafka kafka, Topics topics) throws Exception {
    try (KafkaLineSink sink = new KafkaLineSink(SinkSettings.spooled(kafka.connection(), topics.lines(),
        dir.resolve("idle")), new CollectorMetrics())) {
      Thread.sleep(BASELINE_WARMUP.toMillis());
      Map<Long, Long> before = collectorThreadCpu();
      long t0 = System.nanoTime();
      Thread.sleep(MEASURE.toMillis());
      long wall = System.nanoTime() - t0;
      double pct = 100.0 * delta(before, collectorThreadCpu()) / wall;
      report(String.format(Locale.ROOT, "baseline idle producer (Kafka sink open, no source): %.3f %% of one core",
          pct));
      return pct;
    }
  }

  /**
   * Baseline 2, the same reading without Java: one OpenSSH client per simulated host running both samplers in one
   * session (as the collector does with one connection and two channels), output to /dev/null. CPU of the ssh
   * client processes from /proc (utime + stime); the hosts' own sshd and samplers are excluded from both figures.
   */
  private double measureOpenSshClients(int hosts) throws Exception {
    List<Process> clients = new ArrayList<>();
    try {
      for (int i = 0; i < hosts; i++) {
        NetHost real = i % 2 == 0 ? HOSTS.sut() : HOSTS.peer();
        String both = "(" + Sampler.SAR_DEV.shellCommand() + ") & (" + Sampler.SS_SUMMARY.shellCommand() + ") & wait";
        clients.add(new ProcessBuilder(List.of("ssh", "-F", "/dev/null", "-T", "-o", "BatchMode=yes",
            "-o", "StrictHostKeyChecking=yes", "-o", "UserKnownHostsFile=" + HOSTS.knownHosts(),
            "-i", HOSTS.identity().toString(), "-p", Integer.toString(TestHosts.SSH_PORT),
            HOSTS.user() + "@" + real.address(), both))
            .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start());
      }
      Thread.sleep(BASELINE_WARMUP.toMillis());
      assertThat(clients).as("ssh clients still running").allMatch(Process::isAlive);
      long before = cpuNanos(clients);
      long t0 = System.nanoTime();
      Thread.sleep(MEASURE.toMillis());
      long wall = System.nanoTime() - t0;
      double pct = 100.0 * (cpuNanos(clients) - before) / wall;
      assertThat(clients).as("ssh clients still running").allMatch(Process::isAlive);
      report(String.format(Locale.ROOT, "baseline OpenSSH clients, %d hosts (ssh reading the same two samplers, "
          + "output to /dev/null): %.3f %% of one core (%.4f %% per host)", hosts, pct, pct / hosts));
      return pct / hosts;
    } finally {
      for (Process p : clients) { // by PID: only the processes this benchmark started
        p.destroy();
        if (!p.waitFor(5, java.util.concurrent.TimeUnit.SECONDS)) {
          p.destroyForcibly();
        }
      }
    }
  }

  private static long cpuNanos(List<Process> processes) {
    return processes.stream().mapToLong(p -> p.info().totalCpuDuration().map(Duration::toNanos).orElse(0L)).sum();
  }

  private void measureAgentless(EmbeddedKafka kafka, Topics topics, int hosts, Duration linger, Duration warmup,
      double idleProducerPct, double sshClientPctPerHost) throws Exception {
    CollectorMetrics metrics = new CollectorMetrics();
    List<SshConnection> connections = new ArrayList<>();
    List<SshLineSource> sources = new ArrayList<>();
    try (KafkaLineSink sink = new KafkaLineSink(SinkSettings.spooled(kafka.connection(), topics.lines(),
        dir.resolve("ssh-" + hosts + "-" + linger.toMillis())).withBatchLinger(linger), metrics)) {
      for (int i = 0; i < hosts; i++) {
        NetHost real = i % 2 == 0 ? HOSTS.sut() : HOSTS.peer();
        SshConnection c = new SshConnection(new SshTarget("bench-" + hosts + "-" + i, real.address(),
            TestHosts.SSH_PORT, HOSTS.user(), HOSTS.identity(), HOSTS.knownHosts(), SshTarget.HostKeyPolicy.STRICT,
            Duration.ofSeconds(10)));
        connections.add(c);
        for (Sampler s : List.of(Sampler.SAR_DEV, Sampler.SS_SUMMARY)) {
          sources.add(new SshLineSource(c, s.source(), null, s.shellCommand(), sink, metrics).start());
        }
      }
      Thread.sleep(warmup.toMillis());
      Map<Long, Long> threadsBefore = collectorThreadCpu();
      Map<Long, Long> readersBefore = threadCpu("collector-ssh-");
      Map<Long, Long> jschBefore = threadCpu("Connect thread");
      Map<Long, Long> shipperBefore = threadCpu("collector-kafka");
      Map<Long, Long> producerBefore = threadCpu("kafka-producer-network-thread");
      long processBefore = processCpuNanos();
      long linesBefore = sentLines(metrics);
      long t0 = System.nanoTime();
      Thread.sleep(MEASURE.toMillis());
      long wall = System.nanoTime() - t0;
      long threads = delta(threadsBefore, collectorThreadCpu());
      String breakdown = String.format(Locale.ROOT,
          " [line readers %.3f %%, jsch sessions %.3f %%, Kafka shipper %.3f %%, producer network thread %.3f %%]",
          100.0 * delta(readersBefore, threadCpu("collector-ssh-")) / wall,
          100.0 * delta(jschBefore, threadCpu("Connect thread")) / wall,
          100.0 * delta(shipperBefore, threadCpu("collector-kafka")) / wall,
          100.0 * delta(producerBefore, threadCpu("kafka-producer-network-thread")) / wall);
      long process = processCpuNanos() - processBefore;
      long lines = sentLines(metrics) - linesBefore;
      long streaming = metrics.snapshot().stream().filter(st -> st.sent() > 0).map(st -> st.id().host()).distinct()
          .count();
      double collectorPct = 100.0 * threads / wall;
      double perHostAboveFixed = (collectorPct - idleProducerPct) / hosts;
      report(String.format(Locale.ROOT,
          "agentless %d hosts (sar -n DEV 1 + ss -s each, 1 Hz), batch linger %d ms: collector threads %.3f %% "
              + "of one core (%.3f %% per 10 hosts); minus the idle producer (%.3f %%): %.4f %% per host, "
              + "%.3f %% per 10 hosts (OpenSSH clients: %.4f %% per host); whole JVM incl. embedded broker %.2f %%; "
              + "%d lines/s from %d hosts",
          hosts, linger.toMillis(), collectorPct, collectorPct / hosts * 10, idleProducerPct, perHostAboveFixed,
          perHostAboveFixed * 10, sshClientPctPerHost, 100.0 * process / wall, lines * 1_000_000_000L / wall,
          streaming) + breakdown);
      assertThat(lines).as("lines sent while measuring").isPositive();
    } finally {
      sources.forEach(SshLineSource::close);
      connections.forEach(SshConnection::close);
    }
    for (SourceStats s : metrics.snapshot()) {
      assertThat(s.dropped()).isZero();
    }
  }

  @Test
  void agentHeapUnderXmx64m() throws Exception {
    Topics topics = Topics.defaults();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0)) {
      kafka.createTopics(topics, 3);
      Path log = dir.resolve("agent.log");
      List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
          "-Xmx64m", "-cp", System.getProperty("java.class.path"), "io.netpulse.cli.Main",
          "collector", "agent", "--host", "bench-agent", "--bootstrap-servers", kafka.bootstrapServers(),
          "--data-dir", dir.resolve("agent").toString(), "--duration", "40", "--metrics-interval", "1",
          "--metrics-port", "0"); // the metrics endpoint on, as in production
      Process agent = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
      try {
        assertThat(agent.waitFor(90, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
      } finally {
        agent.destroyForcibly(); // no-op when it has exited
      }
      String output = Files.readString(log);
      assertThat(agent.exitValue()).as(output).isZero();
      assertThat(output).doesNotContain("OutOfMemoryError");
      Matcher m = Pattern.compile("heap used_bytes=(\\d+) max_bytes=(\\d+)").matcher(output);
      long maxUsed = 0;
      long maxHeap = 0;
      int samples = 0;
      while (m.find()) {
        maxUsed = Math.max(maxUsed, Long.parseLong(m.group(1)));
        maxHeap = Long.parseLong(m.group(2));
        samples++;
      }
      Matcher sent = Pattern.compile("counters bench-agent/(\\S+) read=(\\d+) sent=(\\d+)").matcher(output);
      Map<String, String> last = new HashMap<>();
      while (sent.find()) {
        last.put(sent.group(1), "read=" + sent.group(2) + " sent=" + sent.group(3));
      }
      assertThat(output).contains("metrics http://127.0.0.1:");
      report(String.format(Locale.ROOT, "agent -Xmx64m for 40 s, metrics endpoint on: heap in use at most %.1f MiB of %.1f MiB "
              + "(%d samples, 1/s); exit 0; final counters %s", maxUsed / 1048576.0, maxHeap / 1048576.0, samples,
          last));
      assertThat(samples).isGreaterThan(30);
      assertThat(maxHeap).isLessThanOrEqualTo(64L << 20);
      assertThat(last).containsKeys(Sources.SAR_DEV, "ss-summary");
    }
  }

  private static long sentLines(CollectorMetrics metrics) {
    return metrics.snapshot().stream().mapToLong(SourceStats::sent).sum();
  }

  /** CPU time by thread id of the collector's own threads. */
  private static Map<Long, Long> collectorThreadCpu() {
    return threadCpu("collector-", "Connect thread", "kafka-producer-network-thread");
  }

  private static Map<Long, Long> threadCpu(String... prefixes) {
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    Map<Long, Long> cpu = new HashMap<>();
    for (ThreadInfo info : mx.dumpAllThreads(false, false)) {
      String name = info.getThreadName();
      if (java.util.Arrays.stream(prefixes).anyMatch(name::startsWith)) {
        cpu.put(info.getThreadId(), mx.getThreadCpuTime(info.getThreadId()));
      }
    }
    return cpu;
  }

  private static long delta(Map<Long, Long> before, Map<Long, Long> after) {
    long total = 0;
    for (Map.Entry<Long, Long> e : after.entrySet()) {
      total += Math.max(0, e.getValue() - before.getOrDefault(e.getKey(), 0L));
    }
    return total;
  }

  private static long processCpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  private static void report(String line) throws Exception {
    System.out.println(line);
    Files.writeString(REPORT, line + System.lineSeparator(), StandardCharsets.UTF_8, StandardOpenOption.CREATE,
        StandardOpenOption.APPEND);
  }
}
