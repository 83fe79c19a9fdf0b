package io.netpulse.processor.store;

import java.util.List;
import java.util.function.Consumer;

/**
 * Tables of {@link StorePoints} for QuestDB, made before the first write so that they deduplicate.
 * InfluxDB overwrites a point with the same measurement, tag set and time; a table QuestDB creates on
 * its own from a write keeps both. With these tables a batch that {@link RatesToStore} reads again
 * after a store outage lands once, as it would in InfluxDB. Column types are those QuestDB's
 * line-protocol writer would pick (tags SYMBOL, floats DOUBLE, integers LONG, time {@code timestamp}).
 */
public final class QuestDbStoreSchema {

  public static final List<String> DDL = List.of(
      "CREATE TABLE IF NOT EXISTS " + StorePoints.RATE_MEASUREMENT + " ("
          + "host SYMBOL, \"interface\" SYMBOL, metric SYMBOL, unit SYMBOL, \"window\" SYMBOL, "
          + "mean DOUBLE, min DOUBLE, max DOUBLE, count LONG, timestamp TIMESTAMP"
          + ") TIMESTAMP(timestamp) PARTITION BY DAY WAL "
          + "DEDUP UPSERT KEYS(timestamp, host, \"interface\", metric, unit, \"window\")",
      "CREATE TABLE IF NOT EXISTS " + StorePoints.SAMPLE_MEASUREMENT + " ("
          + "host SYMBOL, \"interface\" SYMBOL, metric SYMBOL, unit SYMBOL, source SYMBOL, run SYMBOL, "
          + "value DOUBLE, timestamp TIMESTAMP"
          + ") TIMESTAMP(timestamp) PARTITION BY DAY WAL "
          + "DEDUP UPSERT KEYS(timestamp, host, \"interface\", metric, unit, source, run)",
      // rep_N columns are added by the first write that has them
      "CREATE TABLE IF NOT EXISTS " + StorePoints.RESULT_MEASUREMENT + " ("
          + "plan SYMBOL, test SYMBOL, metric SYMBOL, unit SYMBOL, "
          + "mean DOUBLE, stddev DOUBLE, ci95 DOUBLE, n LONG, timestamp TIMESTAMP"
          + ") TIMESTAMP(timestamp) PARTITION BY DAY WAL "
          + "DEDUP UPSERT KEYS(timestamp, plan, test, metric, unit)");

  private QuestDbStoreSchema() {}

  /**
   * Creates the tables that do not exist yet.
   *
   * @param sql runs one statement, e.g. {@code embeddedQuestDb::sql}
   */
  public static void apply(Consumer<String> sql) {
    DDL.forEach(sql);
  }
}
