package io.netpulse.testbed.embedded;

import io.netpulse.common.questdb.QuestDbQueryException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

@Tag("kafka")
class EmbeddedQuestDbTest {

  @TempDir Path dir;

  @Test
  void servesSqlOnLoopbackAndKeepsTablesAcrossRestart() {
    Path root = dir.resolve("qdb");
    int port;
    try (EmbeddedQuestDb db = EmbeddedQuestDb.start(root, 0)) {
      port = db.httpPort();
      assertThat(port).isPositive();
      assertThat(db.url()).isEqualTo("http://127.0.0.1:" + port);
      System.out.println("EmbeddedQuestDb first start: " + db.startupMillis() + " ms");
      db.sql("CREATE TABLE probe (host SYMBOL, v DOUBLE, n LONG, ts TIMESTAMP) TIMESTAMP(ts) PARTITION BY DAY WAL");
      db.sql("INSERT INTO probe VALUES ('h1', 1.5, 42, '2026-11-30T05:00:00.000000Z')");
      // WAL tables apply asynchronously; wait for the row rather than sleeping a fixed time.
      org.awaitility.Awaitility.await().atMost(java.time.Duration.ofSeconds(10))
          .until(() -> !db.sql("SELECT * FROM probe").isEmpty());
      db.close();
      db.close(); // idempotent
      assertThat(portAccepts(port)).as("port closed after close()").isFalse();
    }
    try (EmbeddedQuestDb again = EmbeddedQuestDb.start(root, port)) {
      System.out.println("EmbeddedQuestDb restart: " + again.startupMillis() + " ms");
      List<Map<String, Object>> rows = again.sql("SELECT host, v, n, ts FROM probe");
      assertThat(rows).containsExactly(Map.of(
          "host", "h1", "v", 1.5, "n", 42L, "ts", "2026-11-30T05:00:00.000000Z"));
    }
    // QuestDB's logger is per JVM (first start wins), so check our config is in place, not where
    // this particular start logged.
    assertThat(root.resolve("conf/log.conf")).content().contains("writers=file");
    assertThat(root.resolve("public")).as("no web console files").doesNotExist();
  }

  /**
   * A test JVM starts and deletes many stores while QuestDB's one logger lives on: its log goes to the build's
   * directory (surefire sets {@value QuestDbLogConfig#LOG_DIR_PROPERTY}), which no test deletes, so its daily roll
   * finds its directory after the store that configured it is gone.
   */
  @Test
  void questDbLogsOutsideAnyStoreThatATestDeletes() throws IOException {
    String logDir = System.getProperty(QuestDbLogConfig.LOG_DIR_PROPERTY);
    assertThat(logDir).as("set by the build's surefire configuration").isNotNull();
    Path root = dir.resolve("deleted-after");
    try (EmbeddedQuestDb db = EmbeddedQuestDb.start(root, 0)) {
      db.sql("SELECT 1");
    }
    assertThat(root.resolve("conf/log.conf")).content()
        .contains("w.file.location=" + Path.of(logDir).toAbsolutePath() + "/questdb.log.");
    try (var files = Files.list(Path.of(logDir))) {
      assertThat(files.map(f -> f.getFileName().toString())).anyMatch(n -> n.startsWith("questdb.log."));
    }
  }

  @Test
  void queryErrorCarriesQuestDbsMessage() {
    try (EmbeddedQuestDb db = EmbeddedQuestDb.start(dir.resolve("qdb"), 0)) {
      assertThatThrownBy(() -> db.sql("SELECT * FROM no_such_table"))
          .isInstanceOf(QuestDbQueryException.class)
          .hasMessageContaining("no_such_table")
          .hasMessageContaining("does not exist");
    }
  }

  @Test
  void portInUseSaysWhichPortAndWhatToChange() throws IOException {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      assertThatThrownBy(() -> EmbeddedQuestDb.start(dir.resolve("qdb"), port))
          .isInstanceOf(EmbeddedStartException.class)
          .hasMessage("port " + port + " on 127.0.0.1 is already in use; choose another with --store-port");
    }
  }

  @Test
  void unwritableDataDirSaysWhatToChange() throws IOException {
    // Root ignores file permissions, so use a path that cannot be a directory: under a regular file.
    Path file = Files.writeString(dir.resolve("plain-file"), "x");
    Path root = file.resolve("qdb");
    assertThatThrownBy(() -> EmbeddedQuestDb.start(root, 0))
        .isInstanceOf(EmbeddedStartException.class)
        .hasMessageStartingWith("data dir " + root + " is not writable (")
        .hasMessageEndingWith("); choose another with --data-dir");
  }

  @Test
  void readOnlyFilesystemIsNotWritable() {
    Path root = Path.of("/proc/netpulse-qdb-test");
    assertThatThrownBy(() -> EmbeddedQuestDb.start(root, 0))
        .hasMessageStartingWith("data dir " + root + " is not writable (")
        .hasMessageEndingWith("); choose another with --data-dir");
  }

  private static boolean portAccepts(int port) {
    try (Socket s = new Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
