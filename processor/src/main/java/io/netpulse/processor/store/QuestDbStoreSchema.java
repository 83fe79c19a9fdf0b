package io.netpulse.processor.store;

import java.util.List;
import java.util.function.Consumer;

import io.netpulse.common.catalog.Sources;

/**
 * Tables of {@link StorePoints} for QuestDB, made before the first write so that they deduplicate.
 * InfluxDB overwrites a point with the same measurement, tag set and time; a table QuestDB creates on
 * its own from a write keeps both. With these tables a batch that {@link StoreWriter} reads again
 * after a store outage lands once, as it would in InfluxDB. Column types are those QuestDB's
 * line-protocol writer would pick (tags SYMBOL, floats DOUBLE, integers LONG, time {@code timestamp}).
 * A table that already exists (made by an earlier write, without deduplication) is switched to it; rows
 * it already holds twice stay.
 */
public final class QuestDbStoreSchema {

  /** One table: how to make it, and the keys a row is unique by. */
  private record Table(String name, String columns, String keys) {

    String create() {
      return "CREATE TABLE IF NOT EXISTS " + name + " (" + columns + ") TIMESTAMP(timestamp) PARTITION BY DAY WAL "
          + "DEDUP UPSERT KEYS(" + keys + ")";
    }

    String enableDedup() {
      return "ALTER TABLE " + name + " DEDUP ENABLE UPSERT KEYS(" + keys + ")";
    }
  }

  private static final List<Table> SCHEMA = List.of(
      new Table(StorePoints.SAMPLE_MEASUREMENT,
          "host SYMBOL, \"interface\" SYMBOL, metric SYMBOL, unit SYMBOL, source SYMBOL, run SYMBOL, "
              + "value DOUBLE, timestamp TIMESTAMP",
          "timestamp, host, \"interface\", metric, unit, source, run"),
      // a field a sampler adds later (a newer sysstat's column) is added by the first write that has it
      new Table(Sources.NET, "host SYMBOL, \"interface\" SYMBOL, run SYMBOL, source SYMBOL, rx_pps DOUBLE, tx_pps DOUBLE, "
          + "rx_bps DOUBLE, tx_bps DOUBLE, timestamp TIMESTAMP", "timestamp, host, \"interface\", run, source"),
      new Table(Sources.NETSTAT, "host SYMBOL, run SYMBOL, source SYMBOL, tcp_total DOUBLE, tcp_estab DOUBLE, "
          + "tcp_closed DOUBLE, tcp_orphaned DOUBLE, tcp_timewait DOUBLE, timestamp TIMESTAMP",
          "timestamp, host, run, source"),
      // their 10-s windows: FIELD_mean, FIELD_min, FIELD_max columns are added by the first write that has them
      new Table(Sources.NET + StorePoints.WINDOW_SUFFIX, "host SYMBOL, \"interface\" SYMBOL, run SYMBOL, source SYMBOL, "
          + "count DOUBLE, timestamp TIMESTAMP", "timestamp, host, \"interface\", run, source"),
      new Table(Sources.NETSTAT + StorePoints.WINDOW_SUFFIX, "host SYMBOL, run SYMBOL, source SYMBOL, count DOUBLE, "
          + "timestamp TIMESTAMP", "timestamp, host, run, source"),
      // rep_N and label_KEY columns are added by the first write that has them
      new Table(StorePoints.RESULT_MEASUREMENT,
          "plan SYMBOL, execution SYMBOL, test SYMBOL, metric SYMBOL, unit SYMBOL, "
              + "mean DOUBLE, stddev DOUBLE, ci95 DOUBLE, n LONG, timestamp TIMESTAMP",
          "timestamp, plan, execution, test, metric, unit"));

  /** Columns a table made by an older netpulse lacks and its dedup keys now name. */
  private static final List<String> ADDED = List.of(
      "ALTER TABLE " + StorePoints.RESULT_MEASUREMENT + " ADD COLUMN IF NOT EXISTS execution SYMBOL");

  public static final List<String> TABLES = SCHEMA.stream().map(Table::name).toList();

  /**
   * The statements, in order: each table made if missing, the columns older tables lack, then each switched to
   * deduplication if it was not.
   */
  public static final List<String> DDL = java.util.stream.Stream.of(SCHEMA.stream().map(Table::create),
      ADDED.stream(), SCHEMA.stream().map(Table::enableDedup)).flatMap(s -> s).toList();

  private QuestDbStoreSchema() {}

  /**
   * Creates the tables that do not exist yet and makes every one deduplicate. Idempotent.
   *
   * @param sql runs one statement, e.g. {@code embeddedQuestDb::sql}
   */
  public static void apply(Consumer<String> sql) {
    DDL.forEach(sql);
  }
}
