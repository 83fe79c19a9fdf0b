package io.netpulse.processor.store;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Units;
import io.netpulse.testbed.embedded.EmbeddedQuestDb;
import io.netpulse.common.event.Sample;
import io.netpulse.common.event.WideSample;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("kafka")
class QuestDbStoreSchemaTest {

  @TempDir Path dir;

  @Test
  void aPointWrittenTwiceLandsOnceWithTheLatestValuesAsInInfluxDb() {
    try (EmbeddedQuestDb db = EmbeddedQuestDb.start(dir.resolve("qdb"), 0)) {
      QuestDbStoreSchema.apply(db::sql);
      QuestDbStoreSchema.apply(db::sql); // idempotent
      long t = 1_796_014_834_000L;
      WideSample first = WideRecords.net("h", "eth0", "run-1", t, 600_000, 5e9);
      WideSample again = WideRecords.net("h", "eth0", "run-1", t, 650_000, 5.5e9);
      // fleet monitoring: no run, and the TCP table no interface; keys that are null still tell rows apart
      WideSample fleet = WideRecords.net("h", "eth0", null, t, 1, 2);
      WideSample estab = WideSample.group(List.of(Sample.of("tcp_estab", 10, Units.CONNECTIONS, null, t)
          .withOrigin("h", null, Sources.SS_SUMMARY)), Sources::measurementOf).get(0);
      Map<String, String> scope = Map.of("host", "h", "interface", "eth0", "run", "run-1", "source", Sources.SAR_DEV);
      WideSample window = WideRecords.window("net_10s", scope, "rx_bps", Units.BITS_PER_S, 5e9, 4e9, 6e9, 9, t);
      WideSample windowAgain = WideRecords.window("net_10s", scope, "rx_bps", Units.BITS_PER_S, 5.1e9, 4e9, 6.5e9, 10,
          t);
      Sample sample = Sample.of("rx_bps", 1e9, Units.BITS_PER_S, "eth0", t).withOrigin("h", null, Sources.SAR_DEV);
      try (InfluxStore store = new InfluxStore(db.url(), "t".toCharArray(), "o", "b")) {
        store.write(first);
        store.write(fleet);
        store.write(estab);
        store.write(window);
        store.write(sample);
        assertThat(store.flush()).isTrue();
        store.write(again);
        store.write(fleet);
        store.write(estab);
        store.write(windowAgain);
        store.write(sample);
        assertThat(store.flush()).isTrue();
      }
      await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
          .until(() -> db.sql("SELECT run, rx_pps, rx_bps FROM net ORDER BY rx_bps"),
              rows -> rows.equals(List.of(
                  row("run", null, "rx_pps", 1.0, "rx_bps", 2.0),
                  row("run", "run-1", "rx_pps", 650_000.0, "rx_bps", 5.5e9))));
      await().atMost(Duration.ofSeconds(15)).ignoreExceptions()
          .until(() -> db.sql("SELECT rx_bps_mean, rx_bps_max, count FROM net_10s"),
              rows -> rows.equals(List.of(Map.of("rx_bps_mean", 5.1e9, "rx_bps_max", 6.5e9, "count", 10.0))));
      await().atMost(Duration.ofSeconds(15)).ignoreExceptions()
          .until(() -> db.sql("SELECT count() n FROM netstat"), rows -> rows.equals(List.of(Map.of("n", 1L))));
      await().atMost(Duration.ofSeconds(15)).ignoreExceptions()
          .until(() -> db.sql("SELECT count() n FROM netpulse_sample"), rows -> rows.equals(List.of(Map.of("n", 1L))));
    }
  }

  @Test
  void anExternalQuestDbWhoseTablesAWriteAlreadyMadeIsSwitchedToDeduplication() {
    try (EmbeddedQuestDb db = EmbeddedQuestDb.start(dir.resolve("qdb"), 0)) {
      long t = 1_796_014_834_000L;
      WideSample row = WideRecords.net("h", "eth0", "run-1", t, 600_000, 5e9);
      try (InfluxStore store = new InfluxStore(db.url(), "t".toCharArray(), "o", "b")) {
        store.write(row); // QuestDB makes net itself, without deduplication
        assertThat(store.flush()).isTrue();
      }
      await().atMost(Duration.ofSeconds(15)).ignoreExceptions()
          .until(() -> db.sql("SELECT count() n FROM net"), rows -> rows.equals(List.of(Map.of("n", 1L))));

      assertThat(StoreTables.prepare(db.url())).contains(StoreTables.Kind.QUESTDB);
      try (InfluxStore store = new InfluxStore(db.url(), "t".toCharArray(), "o", "b")) {
        store.write(row);
        store.write(row);
        assertThat(store.flush()).isTrue();
        store.write(row);
        assertThat(store.flush()).isTrue();
      }
      // the row written before stays one row; the three writes after it replace it
      await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(15)).ignoreExceptions()
          .until(() -> db.sql("SELECT count() n FROM net"), rows -> rows.equals(List.of(Map.of("n", 1L))));
    }
  }

  /** A row of a query's answer: keys and values in turn, values may be null. */
  private static Map<String, Object> row(Object... keysAndValues) {
    Map<String, Object> row = new java.util.HashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      row.put((String) keysAndValues[i], keysAndValues[i + 1]);
    }
    return row;
  }

  /**
   * A result table made by an older netpulse (no execution column) gets one; two executions' points of one
   * plan/test/metric stay apart, tagged with their execution and labels (label_KEY), and a point written again
   * replaces only its own.
   */
  @Test
  void resultPointsOfTwoExecutionsStayApartWithTheirLabels() {
    try (EmbeddedQuestDb db = EmbeddedQuestDb.start(dir.resolve("qdb"), 0)) {
      db.sql("CREATE TABLE netpulse_result (plan SYMBOL, test SYMBOL, metric SYMBOL, unit SYMBOL, mean DOUBLE, "
          + "stddev DOUBLE, ci95 DOUBLE, n LONG, timestamp TIMESTAMP) TIMESTAMP(timestamp) PARTITION BY DAY WAL");
      QuestDbStoreSchema.apply(db::sql);
      long t = 1_796_014_834_000L;
      try (InfluxStore store = new InfluxStore(db.url(), "t".toCharArray(), "o", "b")) {
        store.write(result("p-20261201T100000Z", "c7.large", 1.0, t, false));
        store.write(result("p-20261201T100000Z", "c7.large", 1.5, t, true)); // the same point, final now
        store.write(result("p-20261201T110000Z", "c7.xlarge", 2.0, t + 60_000, true));
        assertThat(store.flush()).isTrue();
      }
      await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
          .until(() -> db.sql("SELECT execution, label_instance_type, mean, final FROM netpulse_result "
              + "ORDER BY timestamp"), rows -> rows.equals(List.of(
                  Map.of("execution", "p-20261201T100000Z", "label_instance_type", "c7.large", "mean", 1.5,
                      "final", true),
                  Map.of("execution", "p-20261201T110000Z", "label_instance_type", "c7.xlarge", "mean", 2.0,
                      "final", true))));
    }
  }

  private static io.netpulse.common.event.ResultEvent result(String execution, String instanceType, double mean,
      long ts, boolean isFinal) {
    return new io.netpulse.common.event.ResultEvent(io.netpulse.common.event.ResultEvent.SCHEMA, "p", "rx", "rx_bps",
        Units.BITS_PER_S, new java.util.TreeMap<>(Map.of(1, mean)), 1, mean, null, null, List.of("sut"),
        List.of("r1"), ts, execution, Map.of("instance_type", instanceType), List.of(), isFinal, 1, 1, null, null);
  }

  @Test
  void aStoreThatDoesNotAnswerIsToldApartFromOneThatIsNotQuestDb() throws Exception {
    int closedPort;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0)) {
      closedPort = s.getLocalPort();
    }
    assertThat(StoreTables.prepare("http://127.0.0.1:" + closedPort)).isEmpty();
    // A stand-in, not InfluxDB (which cannot run here): InfluxDB 2 answers an unknown path such as /exec with
    // 404 and a JSON body {"code":"not found","message":"path not found"}
    com.sun.net.httpserver.HttpServer influxLike =
        com.sun.net.httpserver.HttpServer.create(new java.net.InetSocketAddress("127.0.0.1", 0), 0);
    influxLike.createContext("/", exchange -> {
      byte[] body = "{\"code\":\"not found\",\"message\":\"path not found\"}".getBytes();
      exchange.sendResponseHeaders(404, body.length);
      exchange.getResponseBody().write(body);
      exchange.close();
    });
    influxLike.start();
    try {
      assertThat(StoreTables.prepare("http://127.0.0.1:" + influxLike.getAddress().getPort()))
          .contains(StoreTables.Kind.INFLUXDB);
    } finally {
      influxLike.stop(0);
    }
  }
}
