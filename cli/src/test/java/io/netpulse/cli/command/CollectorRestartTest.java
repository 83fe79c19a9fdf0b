package io.netpulse.cli.command;

import io.netpulse.testbed.ChildJava;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.event.LineEvent;
import io.netpulse.cli.Main;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code netpulse collector agent} in its own JVM, SIGKILLed and started again on the same data dir, then stopped and
 * started once more: (host, source, seq) stays unique on the topic, each start (epoch) has no gap in its sequence, and
 * each restart's gap is logged, counted on /metrics and stated in the first line after it, with its real length.
 */
@Tag("kafka")
class CollectorRestartTest {

  private static final String HOST = "restart-host";
  private static final List<String> SOURCES = List.of(Sources.SAR_DEV, "ss-summary");
  private static final Pattern GAP_LOG = Pattern.compile(HOST + "/(\\S+): gap of (\\d+) ms without lines \\(collector "
      + "restart; last line recorded before: seq (\\d+) in epoch (\\d+)\\); seq goes on at (\\d+) in epoch (\\d+)");

  @TempDir Path dir;
  private final List<ProcessHandle> started = new ArrayList<>();

  @AfterEach
  void stopEverythingStarted() throws Exception {
    // the agents and their samplers (a SIGKILLed agent's sampler loops end at their next write, but not sooner)
    started.forEach(ProcessHandle::destroyForcibly);
    for (String log : List.of("first.log", "second.log", "third.log")) { // kept in the test report
      Path file = dir.resolve(log);
      if (Files.exists(file)) {
        System.out.println("---- " + log + "\n" + Files.readString(file));
      }
    }
  }

  @Test
  void agentKilledAndStartedAgainKeepsSequencesUniqueAndReportsTheRestartGap() throws Exception {
    Topics topics = Topics.defaults();
    Path data = dir.resolve("agent");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0)) {
      kafka.createTopics(topics, 2);
      String bootstrap = kafka.bootstrapServers();

      // 1: runs until SIGKILL, once both samplers' lines are on the topic
      Process first = agent(bootstrap, data, "first.log");
      await("lines of the first start on the topic").atMost(Duration.ofSeconds(90)).pollInterval(Duration.ofSeconds(1))
          .until(() -> SOURCES.stream().allMatch(s -> count(read(bootstrap, topics.lines()), s) >= 20));
      started.addAll(first.descendants().toList()); // sar, sadc, the ss loop: SIGKILL leaves them behind
      long killedAtMs = System.currentTimeMillis();
      first.destroyForcibly(); // SIGKILL: no shutdown hook, nothing drained or written
      assertThat(first.waitFor(10, TimeUnit.SECONDS)).isTrue();
      Thread.sleep(8_000); // down, as after a crash until systemd or an operator starts it again

      // 2: a clean start of 10 s with the metrics endpoint on
      Process second = agent(bootstrap, data, "second.log", "--duration", "10", "--metrics-port", "0");
      Path secondLog = dir.resolve("second.log");
      await("the restart gap of both sources logged").atMost(Duration.ofSeconds(60))
          .until(() -> gaps(Files.readString(secondLog)).size() == SOURCES.size());
      // the endpoint's line comes after the sources start, and may come after their gaps on a loaded machine
      await("the metrics endpoint named").atMost(Duration.ofSeconds(30))
          .until(() -> Files.readString(secondLog).contains("metrics http://"));
      String metrics = scrape(Files.readString(secondLog));
      assertThat(second.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String secondOut = Files.readString(secondLog);
      assertThat(second.exitValue()).as(secondOut).isZero();

      // 3: a clean start after a clean stop
      Process third = agent(bootstrap, data, "third.log", "--duration", "4");
      assertThat(third.waitFor(60, TimeUnit.SECONDS)).isTrue();
      String thirdOut = Files.readString(dir.resolve("third.log"));
      assertThat(third.exitValue()).as(thirdOut).isZero();

      List<LineEvent> lines = read(bootstrap, topics.lines());
      for (String source : SOURCES) {
        List<LineEvent> ofSource = lines.stream().filter(l -> l.source().equals(source)).toList();
        assertThat(ofSource.stream().map(LineEvent::seq).collect(Collectors.toSet())).as(source + ": seq unique")
            .hasSize(ofSource.size());
        Map<Long, List<LineEvent>> byEpoch = new TreeMap<>();
        ofSource.forEach(l -> byEpoch.computeIfAbsent(l.epoch(), e -> new ArrayList<>()).add(l));
        assertThat(byEpoch).as(source + ": one epoch per start").hasSize(3);
        List<List<LineEvent>> starts = new ArrayList<>(byEpoch.values());
        for (List<LineEvent> start : starts) {
          List<Long> seqs = start.stream().map(LineEvent::seq).sorted().toList();
          assertThat(seqs).as(source + ": no gap within a start")
              .containsExactlyElementsOf(LongStream.rangeClosed(seqs.get(0), seqs.get(seqs.size() - 1)).boxed().toList());
        }
        LineEvent lastOfFirst = last(starts.get(0));
        LineEvent firstOfSecond = first(starts.get(1));
        LineEvent lastOfSecond = last(starts.get(1));
        LineEvent firstOfThird = first(starts.get(2));
        assertThat(first(starts.get(0)).seq()).isZero();
        // after SIGKILL: past the killed start's reserved block, which it may have used up to the end
        assertThat(firstOfSecond.seq()).as(source + " after the kill").isGreaterThan(lastOfFirst.seq());
        assertThat(firstOfSecond.seq() % 1000).as(source + ": at a block boundary").isZero();
        // after a clean stop the unused numbers were handed back
        assertThat(firstOfThird.seq()).as(source + " after a clean stop").isEqualTo(lastOfSecond.seq() + 1);

        // the gap after the kill: from the last line the killed start recorded (at most about a second before it
        // died, plus the second between sampler outputs) to the first line after
        Gap gap = gaps(secondOut).get(source);
        long down = firstOfSecond.ts() - killedAtMs;
        assertThat(gap.millis()).as(source + ": gap vs time since the kill").isBetween(down, down + 5_000);
        assertThat(firstOfSecond.gapMs()).as(source + ": stated in the first line after").isEqualTo(gap.millis());
        assertThat(gap.firstSeq()).isEqualTo(firstOfSecond.seq());
        assertThat(gap.epoch()).isEqualTo(firstOfSecond.epoch());
        assertThat(gap.previousEpoch()).isEqualTo(lastOfFirst.epoch());
        // the recorded last line is on the topic with that read time, or was lost with the killed JVM (the tail)
        long recordedReadMs = firstOfSecond.ts() - gap.millis();
        starts.get(0).stream().filter(l -> l.seq() == gap.lastSeq()).findFirst().ifPresentOrElse(
            l -> assertThat(l.ts()).as(source + ": read time of the recorded last line").isEqualTo(recordedReadMs),
            () -> assertThat(gap.lastSeq()).as(source + ": recorded, not on the topic").isGreaterThan(lastOfFirst.seq()));
        assertThat(starts.get(1).stream().filter(l -> l.gapMs() != null)).as(source + ": only the first").hasSize(1);
        assertThat(secondOut).contains("counters " + HOST + "/" + source + " ")
            .containsPattern(Pattern.quote(HOST + "/" + source) + " .* restart_gaps=1 restart_gap_ms=" + gap.millis());
        assertThat(metrics).contains("netpulse_collector_restart_gaps_total{host=\"" + HOST + "\",source=\"" + source
            + "\"} 1.0\n").contains("netpulse_collector_restart_gap_seconds_total{host=\"" + HOST + "\",source=\""
            + source + "\"} " + seconds(gap.millis()) + "\n");

        // after a clean stop the last line read is known exactly: it is the last one on the topic
        assertThat(firstOfThird.gapMs()).as(source + ": gap after a clean stop")
            .isEqualTo(firstOfThird.ts() - lastOfSecond.ts());
        assertThat(thirdOut).contains(HOST + "/" + source + ": gap of " + firstOfThird.gapMs() + " ms without lines "
            + "(collector restart; last line recorded before: seq " + lastOfSecond.seq() + " in epoch "
            + lastOfSecond.epoch() + "); seq goes on at " + firstOfThird.seq());
      }
      assertThat(new HashSet<>(lines.stream().map(l -> l.source() + "/" + l.epoch() + "/" + l.seq()).toList()))
          .as("(host, source, epoch, seq) unique").hasSize(lines.size());
    }
  }

  private record Gap(long millis, long lastSeq, long previousEpoch, long firstSeq, long epoch) {}

  private static Map<String, Gap> gaps(String log) {
    Map<String, Gap> gaps = new TreeMap<>();
    Matcher m = GAP_LOG.matcher(log);
    while (m.find()) {
      gaps.put(m.group(1), new Gap(Long.parseLong(m.group(2)), Long.parseLong(m.group(3)), Long.parseLong(m.group(4)),
          Long.parseLong(m.group(5)), Long.parseLong(m.group(6))));
    }
    return gaps;
  }

  private Process agent(String bootstrap, Path data, String log, String... more) throws Exception {
    List<String> command = new ArrayList<>(ChildJava.command("-Xmx128m", "-cp", System.getProperty("java.class.path"),
        Main.class.getName(), "collector", "agent",
        "--host", HOST, "--samplers", String.join(",", SOURCES), "--bootstrap-servers", bootstrap,
        "--data-dir", data.toString(), "--metrics-interval", "1", "--batch-linger", "200"));
    command.addAll(List.of(more));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(dir.resolve(log).toFile()).start();
    started.add(p.toHandle());
    return p;
  }

  /** The /metrics text of the agent whose log names the endpoint. */
  private static String scrape(String log) throws Exception {
    Matcher m = Pattern.compile("metrics (http://\\S+)").matcher(log);
    assertThat(m.find()).as(log).isTrue();
    HttpResponse<String> r = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(m.group(1))).build(),
        HttpResponse.BodyHandlers.ofString());
    assertThat(r.statusCode()).isEqualTo(200);
    return r.body();
  }

  /** As the Prometheus registry writes a value: always a double ({@code 11.0}, {@code 11.088}). */
  private static String seconds(long millis) {
    return Double.toString(millis / 1000.0);
  }

  private static long count(List<LineEvent> lines, String source) {
    return lines.stream().filter(l -> l.source().equals(source)).count();
  }

  private static LineEvent first(List<LineEvent> lines) {
    return lines.stream().min((a, b) -> Long.compare(a.seq(), b.seq())).orElseThrow();
  }

  private static LineEvent last(List<LineEvent> lines) {
    return lines.stream().max((a, b) -> Long.compare(a.seq(), b.seq())).orElseThrow();
  }

  /** Every line on the topic up to its end when called. */
  private static List<LineEvent> read(String bootstrap, String topic) {
    List<LineEvent> lines = new ArrayList<>();
    try (KafkaConsumer<String, List<LineEvent>> consumer = LinesTopic.fromBeginning(bootstrap, topic)) {
      Set<TopicPartition> parts = consumer.assignment();
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      while (parts.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
        consumer.poll(Duration.ofMillis(300)).forEach(r -> lines.addAll(r.value()));
      }
    }
    return lines;
  }
}
