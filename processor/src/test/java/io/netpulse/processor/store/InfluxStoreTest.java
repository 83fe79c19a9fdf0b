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
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real influxdb-client-java writing to a real QuestDB's /api/v2/write, read back with SQL. */
@Tag("kafka")
class InfluxStoreTest {

  @TempDir static Path dir;
  static EmbeddedQuestDb db;

  @BeforeAll
  static void startStore() {
    db = EmbeddedQuestDb.start(dir.resolve("qdb"), 0);
  }

  @AfterAll
  static void stopStore() {
    if (db != null) {
      db.close();
    }
  }

  @Test
  void rowsAndWindowsLandWithExactFieldsTagsAndTime() {
    long start = Instant.parse("2026-11-30T05:20:01.123Z").toEpochMilli();
    WideSample rx = WideRecords.net("sut-1", "eth0", "run-4", start, 1_148_937.5, 9.41234567891e9);
    // the TCP table's window has no interface, and this one no run: those tags are left out
    WideSample estab = WideRecords.window("netstat_10s", Map.of("host", "sut-1", "source", Sources.SS_SUMMARY),
        "tcp_estab", Units.CONNECTIONS, 1234.5, 1000.0, 1500.0, 10, start + 1000);
    try (InfluxStore store = new InfluxStore(db.url(), "not-a-real-token".toCharArray(), "netpulse", "netpulse")) {
      store.write(rx);
      store.write(estab);
      assertThat(store.flush()).as("flush acknowledged").isTrue();
      assertThat(store.writtenPoints()).isEqualTo(2);
      assertThat(store.failedBatches()).isZero();
    }
    Map<String, Object> row = awaitRows("SELECT host, \"interface\", run, source, rx_pps, rx_bps, timestamp FROM net "
        + "WHERE host = 'sut-1'", 1).get(0);
    assertThat(row).containsEntry("host", "sut-1").containsEntry("interface", "eth0").containsEntry("run", "run-4")
        .containsEntry("source", Sources.SAR_DEV).containsEntry("rx_pps", 1_148_937.5)
        .containsEntry("rx_bps", 9.41234567891e9);
    assertThat(Instant.parse((String) row.get("timestamp")).toEpochMilli()).isEqualTo(start);
    List<Map<String, Object>> windows = awaitRows("SELECT * FROM netstat_10s WHERE host = 'sut-1'", 1);
    assertThat(windows.get(0)).containsOnlyKeys("host", "source", "tcp_estab_mean", "tcp_estab_min", "tcp_estab_max",
        "count", "timestamp").containsEntry("source", Sources.SS_SUMMARY).containsEntry("tcp_estab_mean", 1234.5)
        .containsEntry("tcp_estab_min", 1000.0).containsEntry("tcp_estab_max", 1500.0).containsEntry("count", 10.0);
    assertThat(Instant.parse((String) windows.get(0).get("timestamp")).toEpochMilli()).isEqualTo(start + 1000);
  }

  @Test
  void samplesLandWithSourceRunAndTs() {
    long ts = Instant.parse("2026-11-30T05:21:00.456Z").toEpochMilli();
    Sample inRun = Sample.of("rx_pps", 1_234_567.0, Units.PACKETS_PER_S, "veth1", ts)
        .withOrigin("sut-2", "run-7", Sources.SAR_DEV);
    Sample fleet = Sample.of("tcp_estab", 42, Units.CONNECTIONS, null, ts + 1)
        .withOrigin("sut-2", null, "ss-summary");
    try (InfluxStore store = new InfluxStore(db.url(), "t".toCharArray(), "netpulse", "netpulse")) {
      store.write(inRun);
      store.write(fleet);
      assertThat(store.flush()).isTrue();
    }
    List<Map<String, Object>> rows = awaitRows("SELECT host, \"interface\", metric, unit, source, run, value, "
        + "timestamp FROM netpulse_sample WHERE host = 'sut-2' ORDER BY timestamp", 2);
    assertThat(rows.get(0)).containsEntry("interface", "veth1").containsEntry("metric", "rx_pps")
        .containsEntry("unit", "packets/s").containsEntry("source", Sources.SAR_DEV).containsEntry("run", "run-7")
        .containsEntry("value", 1_234_567.0);
    assertThat(Instant.parse((String) rows.get(0).get("timestamp")).toEpochMilli()).isEqualTo(ts);
    assertThat(rows.get(1)).containsEntry("interface", null).containsEntry("run", null)
        .containsEntry("source", "ss-summary").containsEntry("value", 42.0);
  }

  @Test
  void unreachableStoreNeverThrowsReportsFailureAndForgetsThePoints() throws Exception {
    int closedPort;
    try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("127.0.0.1"))) {
      closedPort = s.getLocalPort();
    }
    InfluxStore store = new InfluxStore("http://127.0.0.1:" + closedPort, "t".toCharArray(), "o", "b");
    long ts = System.currentTimeMillis();
    store.write(Sample.of("rx_bps", 1, Units.BITS_PER_S, "eth0", ts).withOrigin("h", null, Sources.SAR_DEV));
    assertThat(store.flush()).as("connection refused: not stored").isFalse();
    assertThat(store.failedBatches()).isEqualTo(1);
    assertThat(store.writtenPoints()).isZero();
    // The failed points are the caller's to write again, not held for a later flush to claim as written.
    assertThat(store.flush()).as("nothing held: an empty flush").isTrue();
    assertThat(store.failedBatches()).isEqualTo(1);
    store.close();
    store.close();
  }

  @Test
  void rejectedBatchIsCountedAndFlushSaysSo() {
    // A path QuestDB does not serve: HTTP 404.
    try (InfluxStore store = new InfluxStore(db.url() + "/no-such-prefix", "t".toCharArray(), "o", "b")) {
      store.write(Sample.of("rx_bps", 1, Units.BITS_PER_S, "eth0", 1_000L).withOrigin("h", null, Sources.SAR_DEV));
      assertThat(store.flush()).isFalse();
      assertThat(store.failedBatches()).isEqualTo(1);
      assertThat(store.writtenPoints()).isZero();
    }
  }

  @Test
  void aFlushOfMoreThanOneRequestWritesThemAll() {
    long t0 = Instant.parse("2026-11-30T05:30:00Z").toEpochMilli();
    int points = InfluxStore.BATCH_SIZE_POINTS * 2 + 7;
    try (InfluxStore store = new InfluxStore(db.url(), "t".toCharArray(), "o", "b")) {
      for (int i = 0; i < points; i++) {
        store.write(Sample.of("rx_pps", i, Units.PACKETS_PER_S, "eth9", t0 + i).withOrigin("sut-3", null,
            Sources.SAR_DEV));
      }
      assertThat(store.flush()).isTrue();
      assertThat(store.writtenPoints()).isEqualTo(points);
    }
    await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100)).ignoreExceptions()
        .until(() -> db.sql("SELECT count() n, sum(value) s FROM netpulse_sample WHERE host = 'sut-3'"),
            rows -> rows.equals(List.of(Map.of("n", (long) points, "s", points * (points - 1) / 2.0))));
  }

  private static List<Map<String, Object>> awaitRows(String query, int expected) {
    // Tables are created on first write and WAL rows show up ~0.1-0.2 s later.
    return await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(100))
        .ignoreExceptions()
        .until(() -> db.sql(query), r -> r.size() == expected);
  }
}
