package io.netpulse.launcher.services;

import io.netpulse.common.Topics;
import io.netpulse.common.event.WideSample;
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
 * {@code netpulse.lines}; each second's rows on {@code netpulse.metrics} and the 10-s windows on
 * {@code netpulse.windows} (latest per key), and the same in the store's {@code net}, {@code netstat},
 * {@code net_10s} and {@code netstat_10s} tables, each against {@link ReferenceRates}.
 */
final class PipelineChecks implements AutoCloseable {

  static final Topics TOPICS = Topics.defaults();
  static final String STORE_GROUP = "netpulse-store";
  /** The store's tables of per-second rows and of their windows. */
  private static final List<String> SECOND_TABLES = List.of("net", "netstat");
  private static final List<String> WINDOW_TABLES = List.of("net_10s", "netstat_10s");
  /** The columns of those tables that are tags or time, not fields. */
  private static final java.util.Set<String> NOT_FIELDS =
      java.util.Set.of("host", "interface", "run", "source", "timestamp", "count");

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
   * The reference over the lines the processor has committed (all of them once it is current), and the latest value
   * per key on the topics: each field of a {@code metrics} row as that second's {@code 1s} value (count 1), each field
   * of a {@code windows} record as its {@code 10s} window.
   */
  record TopicView(ReferenceRates.Result reference, Map<RateKey, RateValue> rates,
      Map<RateKey, List<String>> history, long records, long unreadable, Map<TopicPartition, Long> linesUpTo) {

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
    for (String topic : List.of(TOPICS.metrics(), TOPICS.windows())) {
      for (List<ConsumerRecord<String, byte[]>> partition :
          KafkaReads.read(session.bootstrap(), topic, KafkaReads.endOffsets(admin, topic)).values()) {
        for (ConsumerRecord<String, byte[]> r : partition) {
          records++;
          try {
            WideSample row = Json.read(r.value(), WideSample.class);
            valuesOf(row).forEach((key, value) -> {
              latest.put(key, value);
              history.computeIfAbsent(key, k -> new ArrayList<>()).add(String.format(java.util.Locale.ROOT,
                  "count=%d mean=%.6g @%s-%d:%d", value.count(), value.mean(), topic, r.partition(), r.offset()));
            });
          } catch (IOException | RuntimeException ex) {
            unreadable++;
          }
        }
      }
    }
    return new TopicView(reference, latest, history, records, unreadable, upTo);
  }

  /**
   * A row's fields as {@code 1s} values, or a window's as {@code 10s} windows, keyed as the reference keys them; none
   * for a tool's summary row or a stateful source's (the reference does not compute proc-net-dev).
   */
  static Map<RateKey, RateValue> valuesOf(WideSample row) {
    Map<RateKey, RateValue> out = new HashMap<>();
    String source = row.tags().get("source");
    if (row.summaryRow() || "proc-net-dev".equals(source)) {
      return out;
    }
    String host = row.tags().get("host");
    String iface = row.iface();
    if (row.name().endsWith("_10s")) {
      long count = Math.round(row.fields().getOrDefault("count", Double.NaN));
      row.fields().forEach((field, mean) -> {
        if (field.endsWith("_mean")) {
          String metric = field.substring(0, field.length() - "_mean".length());
          out.put(new RateKey(host, iface, metric, "10s", row.time()), new RateValue(mean,
              row.fields().get(metric + "_min"), row.fields().get(metric + "_max"), count, row.units().get(field)));
        }
      });
    } else {
      long second = row.time() - Math.floorMod(row.time(), 1_000L);
      row.fields().forEach((metric, v) ->
          out.put(new RateKey(host, iface, metric, "1s", second), new RateValue(v, v, v, 1, row.units().get(metric))));
    }
    return out;
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
   * The latest second of a row of {@code host} written to {@code metrics} from {@code from} on, or Long.MIN_VALUE if
   * none: whether new lines still become rows.
   */
  long newestSecondRow(String host, Map<TopicPartition, Long> from) {
    long newest = Long.MIN_VALUE;
    for (List<ConsumerRecord<String, byte[]>> records : KafkaReads.read(session.bootstrap(), TOPICS.metrics(), from,
        KafkaReads.endOffsets(admin, TOPICS.metrics())).values()) {
      for (ConsumerRecord<String, byte[]> r : records) {
        try {
          WideSample row = Json.read(r.value(), WideSample.class);
          if (host.equals(row.tags().get("host")) && !row.summaryRow()) {
            newest = Math.max(newest, row.time());
          }
        } catch (IOException | RuntimeException ignored) {
          // an unreadable row is counted by topicView
        }
      }
    }
    return newest;
  }

  /**
   * The store's rows once the store writer has committed everything now on {@code metrics} and {@code windows}
   * (waited for up to {@code within}) and the rows of the reference's keys are visible (QuestDB applies WAL writes
   * shortly after).
   *
   * @param rows every row's value per key, several per key where a table keeps duplicates; the store has no units,
   *             so each value carries its key's unit from the reference
   */
  record StoreView(Map<RateKey, List<RateValue>> rows, long caughtUpAfterMs, long writerLag, String tableInfo,
      String error) {

    /** Keys with more than one row for (timestamp, host, interface, run, source) in their table. */
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
    Map<TopicPartition, Long> end = new HashMap<>(KafkaReads.endOffsets(admin, TOPICS.metrics()));
    end.putAll(KafkaReads.endOffsets(admin, TOPICS.windows()));
    long caughtUpAfter = -1;
    long lag;
    do {
      Map<TopicPartition, Long> committed = new HashMap<>(KafkaReads.committed(admin, STORE_GROUP, TOPICS.metrics()));
      committed.putAll(KafkaReads.committed(admin, STORE_GROUP, TOPICS.windows()));
      lag = KafkaReads.lag(end, committed);
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
        rows = storeRows(topic.reference().windows());
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

  private Map<RateKey, List<RateValue>> storeRows(Map<RateKey, RateValue> reference) throws IOException {
    Map<RateKey, List<RateValue>> out = new HashMap<>();
    // ss -s rows carry the ms their output was read, and a sampler running late can print two in one second: a key
    // (its second) keeps the latest row, and only rows of the very same time count as one written twice
    Map<RateKey, Long> timeOf = new HashMap<>();
    for (String table : SECOND_TABLES) {
      for (Map<String, Object> row : sql.query("SELECT * FROM " + table + " ORDER BY timestamp")) {
        long time = Instant.parse((String) row.get("timestamp")).toEpochMilli();
        long second = time - Math.floorMod(time, 1_000L);
        row.forEach((column, v) -> {
          if (!NOT_FIELDS.contains(column) && v instanceof Number n) {
            RateKey key = new RateKey((String) row.get("host"), (String) row.get("interface"), column, "1s", second);
            RateValue value = new RateValue(n.doubleValue(), n.doubleValue(), n.doubleValue(), 1, unitOf(reference, key));
            Long before = timeOf.put(key, time);
            if (before != null && before != time) {
              out.remove(key); // an earlier output of the same second: the latest is the second's value
            }
            out.computeIfAbsent(key, k -> new ArrayList<>()).add(value);
          }
        });
      }
    }
    for (String table : WINDOW_TABLES) {
      for (Map<String, Object> row : sql.query("SELECT * FROM " + table)) {
        long start = Instant.parse((String) row.get("timestamp")).toEpochMilli();
        row.forEach((column, v) -> {
          if (column.endsWith("_mean") && v instanceof Number mean) {
            String metric = column.substring(0, column.length() - "_mean".length());
            RateKey key = new RateKey((String) row.get("host"), (String) row.get("interface"), metric, "10s", start);
            out.computeIfAbsent(key, k -> new ArrayList<>()).add(new RateValue(mean.doubleValue(),
                number(row.get(metric + "_min")), number(row.get(metric + "_max")), (long) number(row.get("count")),
                unitOf(reference, key)));
          }
        });
      }
    }
    return out;
  }

  private static String unitOf(Map<RateKey, RateValue> reference, RateKey key) {
    RateValue r = reference.get(key);
    return r == null ? null : r.unit();
  }

  /** How the tables were made: whether they deduplicate is what makes a replayed batch land once. */
  private String tableInfo() {
    try {
      return String.valueOf(sql.query("SELECT table_name, walEnabled, dedup FROM tables() WHERE table_name IN ("
          + java.util.stream.Stream.concat(SECOND_TABLES.stream(), WINDOW_TABLES.stream()).map(t -> "'" + t + "'")
              .collect(java.util.stream.Collectors.joining(", ")) + ")"));
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
