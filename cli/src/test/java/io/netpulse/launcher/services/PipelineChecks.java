package io.netpulse.launcher.services;

import io.netpulse.common.Topics;
import io.netpulse.common.event.RateEvent;
import io.netpulse.common.json.Json;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;

/**
 * What an operator would look at after a fault, measured: the processor's health file and its group's lag on
 * {@code netpulse.lines}, the rates on {@code netpulse.rates} (latest per window) and in the store's
 * {@code netpulse_rate} table, each against {@link ReferenceRates}.
 */
final class PipelineChecks implements AutoCloseable {

  static final Topics TOPICS = Topics.defaults();
  static final String STORE_GROUP = "netpulse-store";
  private static final String RATE_TABLE = "netpulse_rate";

  private final PipelineSession session;
  private final Admin admin;
  private final QuestDbHttp sql;

  PipelineChecks(PipelineSession session) {
    this.session = session;
    this.admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, session.bootstrap()));
    this.sql = new QuestDbHttp(session.storeUrl());
  }

  Admin admin() {
    return admin;
  }

  /**
   * How soon the processor was RUNNING (health file rewritten after {@code sinceMs}) and current (its group's committed
   * offsets on {@code lines} reached the end offsets), each measured from {@code sinceMs}; -1 if not within
   * {@code within}.
   */
  record Current(long runningAfterMs, long caughtUpAfterMs, String health, java.util.Set<String> statesSeen, long lag,
      Map<TopicPartition, Long> end, Map<TopicPartition, Long> committed) {
    boolean running() {
      return runningAfterMs >= 0;
    }

    boolean caughtUp() {
      return caughtUpAfterMs >= 0;
    }

    @Override
    public String toString() {
      return "RUNNING after " + (running() ? runningAfterMs + " ms" : "never") + ", caught up after "
          + (caughtUp() ? caughtUpAfterMs + " ms" : "never") + "; health file: '" + health + "' (states seen: "
          + statesSeen + "); lag " + lag
          + " (end " + end + ", committed " + committed + ")";
    }
  }

  Current processorCurrent(long sinceMs, Duration within) {
    long deadline = sinceMs + within.toMillis();
    long runningAt = -1;
    long caughtUpAt = -1;
    String health = "";
    Map<TopicPartition, Long> end = Map.of();
    Map<TopicPartition, Long> committed = Map.of();
    long lag = -1;
    java.util.Set<String> states = new java.util.LinkedHashSet<>();
    do {
      health = health();
      states.add(health.split(" ", 2)[0]);
      if (runningAt < 0 && health.startsWith("RUNNING ") && healthWrittenAt(health) >= sinceMs) {
        runningAt = System.currentTimeMillis();
      }
      if (caughtUpAt < 0) {
        try {
          end = KafkaReads.endOffsets(admin, TOPICS.lines());
          committed = KafkaReads.committed(admin, PipelineSession.APPLICATION_ID, TOPICS.lines());
          lag = KafkaReads.lag(end, committed);
          if (lag == 0) {
            caughtUpAt = System.currentTimeMillis();
          }
        } catch (IllegalStateException e) {
          health += " (lag unknown: " + e.getMessage() + ")";
        }
      }
      if (runningAt >= 0 && caughtUpAt >= 0) {
        break;
      }
      ChildJvm.sleep(250);
    } while (System.currentTimeMillis() < deadline);
    return new Current(runningAt < 0 ? -1 : runningAt - sinceMs, caughtUpAt < 0 ? -1 : caughtUpAt - sinceMs, health,
        states, lag, end, committed);
  }

  private String health() {
    try {
      Path f = session.healthFile();
      return Files.exists(f) ? Files.readString(f).strip() : "(no health file)";
    } catch (IOException e) {
      return "(unreadable: " + e.getMessage() + ")";
    }
  }

  private static long healthWrittenAt(String health) {
    for (String part : health.split(" ")) {
      if (part.startsWith("at=")) {
        try {
          return Long.parseLong(part.substring(3));
        } catch (NumberFormatException e) {
          return -1;
        }
      }
    }
    return -1;
  }

  /**
   * The reference over the lines the processor has committed (all of them once it is current), and the latest rate
   * per window on the topic, read once those lines' rates had time to be emitted (a 100-ms wall-clock punctuator emits
   * them in a later transaction than the lines' offsets).
   */
  record TopicView(ReferenceRates.Result reference, Map<RateKey, RateValue> rates,
      Map<RateKey, List<String>> history, long rateRecords, long unreadableRates, Map<TopicPartition, Long> linesUpTo) {

    /** Every emission of {@code key} on the topic in order, for messages: "count=10 mean=… @partition:offset". */
    String historyOf(RateKey key) {
      List<String> h = history.getOrDefault(key, List.of());
      return "\n      emitted " + h.size() + "x: " + String.join(" -> ", h);
    }

    Predicate<RateKey> scope(long sinceMs) {
      return k -> reference.complete(k, sinceMs);
    }
  }

  TopicView topicView() {
    Map<TopicPartition, Long> upTo = KafkaReads.committed(admin, PipelineSession.APPLICATION_ID, TOPICS.lines());
    ChildJvm.sleep(1_500);
    ReferenceRates.Result reference =
        ReferenceRates.compute(KafkaReads.read(session.bootstrap(), TOPICS.lines(), upTo).values());
    Map<RateKey, RateValue> latest = new HashMap<>();
    Map<RateKey, List<String>> history = new HashMap<>();
    long records = 0;
    long unreadable = 0;
    Map<TopicPartition, Long> ratesEnd = KafkaReads.endOffsets(admin, TOPICS.rates());
    for (List<ConsumerRecord<String, byte[]>> partition :
        KafkaReads.read(session.bootstrap(), TOPICS.rates(), ratesEnd).values()) {
      for (ConsumerRecord<String, byte[]> r : partition) {
        records++;
        try {
          RateEvent e = Json.read(r.value(), RateEvent.class);
          RateKey key = new RateKey(e.host(), e.iface(), e.metric(), e.window(), e.windowStart());
          RateValue value = new RateValue(e.mean(), e.min(), e.max(), e.count(), e.unit());
          latest.put(key, value);
          history.computeIfAbsent(key, k -> new ArrayList<>()).add(String.format(java.util.Locale.ROOT,
              "count=%d mean=%.6g @%d:%d", value.count(), value.mean(), r.partition(), r.offset()));
        } catch (IOException | RuntimeException ex) {
          unreadable++;
        }
      }
    }
    return new TopicView(reference, latest, history, records, unreadable, upTo);
  }

  /**
   * The members of each of {@code groups} now, as "clientId@host" (empty when none): whether a stopped processor left
   * its groups, or its successor must wait for the session timeout before it gets the partitions.
   */
  Map<String, List<String>> groupMembers(List<String> groups) {
    try {
      Map<String, List<String>> out = new java.util.TreeMap<>();
      admin.describeConsumerGroups(groups).all().get(30, java.util.concurrent.TimeUnit.SECONDS).forEach((g, d) ->
          out.put(g, d.members().stream().map(m -> m.clientId() + "@" + m.host()).toList()));
      return out;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted", e);
    } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
      throw new IllegalStateException("cannot describe groups " + groups + ": " + e, e);
    }
  }

  /**
   * The latest window start of a 1-s rate of {@code host} written to {@code rates} from {@code from} on, or
   * Long.MIN_VALUE if none: whether new lines still become rates.
   */
  long newestSecondRate(String host, Map<TopicPartition, Long> from) {
    long newest = Long.MIN_VALUE;
    for (List<ConsumerRecord<String, byte[]>> records : KafkaReads.read(session.bootstrap(), TOPICS.rates(), from,
        KafkaReads.endOffsets(admin, TOPICS.rates())).values()) {
      for (ConsumerRecord<String, byte[]> r : records) {
        try {
          RateEvent e = Json.read(r.value(), RateEvent.class);
          if (host.equals(e.host()) && "1s".equals(e.window())) {
            newest = Math.max(newest, e.windowStart());
          }
        } catch (IOException | RuntimeException ignored) {
          // an unreadable rate is counted by topicView
        }
      }
    }
    return newest;
  }

  /**
   * The store's rate rows once the store writer has committed everything now on {@code rates} (waited for up to
   * {@code within}) and the rows of the reference's windows are visible (QuestDB applies WAL writes shortly after).
   *
   * @param rows every row, several per window where the table keeps duplicates
   */
  record StoreView(Map<RateKey, List<RateValue>> rows, long caughtUpAfterMs, long writerLag, String tableInfo,
      String error) {

    /** Windows with more than one row for (timestamp, host, interface, metric, unit, window). */
    Map<RateKey, List<RateValue>> duplicates(Predicate<RateKey> scope) {
      Map<RateKey, List<RateValue>> out = new java.util.TreeMap<>(
          java.util.Comparator.comparingLong(RateKey::startMs).thenComparing(RateKey::toString));
      rows.forEach((k, v) -> {
        if (scope.test(k)) {
          Map<String, Long> perUnit = new HashMap<>();
          v.forEach(r -> perUnit.merge(String.valueOf(r.unit()), 1L, Long::sum));
          if (perUnit.values().stream().anyMatch(n -> n > 1)) {
            out.put(k, v);
          }
        }
      });
      return out;
    }

    /** One value per window for comparing: the first row that differs from the reference, else any row. */
    Map<RateKey, RateValue> forComparison(Map<RateKey, RateValue> reference) {
      Map<RateKey, RateValue> out = new HashMap<>();
      rows.forEach((k, v) -> {
        RateValue expected = reference.get(k);
        out.put(k, v.stream().filter(r -> expected == null || !r.sameAs(expected)).findFirst().orElse(v.get(0)));
      });
      return out;
    }
  }

  StoreView storeView(TopicView topic, long sinceMs, Duration within) {
    long t0 = System.currentTimeMillis();
    Map<TopicPartition, Long> ratesEnd = KafkaReads.endOffsets(admin, TOPICS.rates());
    long caughtUpAfter = -1;
    long lag;
    do {
      lag = KafkaReads.lag(ratesEnd, KafkaReads.committed(admin, STORE_GROUP, TOPICS.rates()));
      if (lag == 0) {
        caughtUpAfter = System.currentTimeMillis() - t0;
        break;
      }
      ChildJvm.sleep(500);
    } while (System.currentTimeMillis() - t0 < within.toMillis());
    Predicate<RateKey> scope = topic.scope(sinceMs);
    Map<RateKey, List<RateValue>> rows = Map.of();
    String error = null;
    long visibleDeadline = System.currentTimeMillis() + 30_000;
    do {
      try {
        rows = storeRows();
        error = null;
        Map<RateKey, List<RateValue>> seen = rows;
        if (topic.reference().windows().keySet().stream().filter(scope).allMatch(seen::containsKey)) {
          break;
        }
      } catch (IOException e) {
        error = e.getMessage();
      }
      ChildJvm.sleep(1_000);
    } while (System.currentTimeMillis() < visibleDeadline);
    return new StoreView(rows, caughtUpAfter, lag, tableInfo(), error);
  }

  private Map<RateKey, List<RateValue>> storeRows() throws IOException {
    Map<RateKey, List<RateValue>> out = new HashMap<>();
    for (Map<String, Object> row : sql.query("SELECT host, \"interface\", metric, unit, \"window\", mean, min, max, "
        + "count, timestamp FROM " + RATE_TABLE)) {
      RateKey key = new RateKey((String) row.get("host"), (String) row.get("interface"), (String) row.get("metric"),
          (String) row.get("window"), Instant.parse((String) row.get("timestamp")).toEpochMilli());
      out.computeIfAbsent(key, k -> new ArrayList<>()).add(new RateValue(number(row.get("mean")),
          number(row.get("min")), number(row.get("max")), (long) number(row.get("count")), (String) row.get("unit")));
    }
    return out;
  }

  /** How the table was made: whether it deduplicates is what makes a replayed batch land once. */
  private String tableInfo() {
    try {
      return String.valueOf(sql.query("SELECT table_name, walEnabled, dedup FROM tables() WHERE table_name = '"
          + RATE_TABLE + "'"));
    } catch (IOException e) {
      return "(tables() failed: " + e.getMessage() + ")";
    }
  }

  private static double number(Object o) {
    return o instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(5));
  }
}
