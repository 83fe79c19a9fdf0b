package io.netpulse.cli.command;

import static io.netpulse.cli.command.CollectorRun.collector;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.collector.DataDirLock;
import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testkit.Exposition;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code netpulse collector}'s metrics endpoint options and its one-collector-per-data-dir rule. */
@Tag("kafka")
class CollectorCommandMetricsTest {

  @TempDir Path dir;

  @Test
  void secondCollectorOnTheSameDataDirExitsTwoWithOneLineNamingTheDir() throws Exception {
    Path data = dir.resolve("data");
    try (DataDirLock first = DataDirLock.acquire(data)) { // what a running collector holds
      CollectorRun r = collector("agent", "--bootstrap-servers", "127.0.0.1:1", "--data-dir", data.toString(),
          "--duration", "1");
      assertThat(r.exit()).isEqualTo(2);
      assertThat(r.err().strip()).hasLineCount(1)
          .startsWith("netpulse: data dir " + data + " is in use by another collector").doesNotContain("\tat ");
    }
  }

  @Test
  void nonLoopbackMetricsHostWithoutTokenIsAUsageError() {
    CollectorRun r = collector("agent", "--bootstrap-servers", "127.0.0.1:1", "--data-dir", dir.toString(),
        "--metrics-port", "0", "--metrics-host", "0.0.0.0", "--duration", "1");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err()).contains("--metrics-host 0.0.0.0 is reachable from other hosts: set --metrics-token")
        .doesNotContain("\tat ");
  }

  @Test
  void agentServesItsCountersWhileRunning() throws Exception {
    Topics topics = Topics.defaults();
    int port;
    try (ServerSocket free = new ServerSocket(0)) {
      port = free.getLocalPort();
    }
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0)) {
      kafka.createTopics(topics, 1);
      CompletableFuture<CollectorRun> agent = CompletableFuture.supplyAsync(() -> collector("agent", "--host",
          "metrics-host", "--samplers", "ss-summary", "--bootstrap-servers", kafka.bootstrapServers(),
          "--data-dir", dir.resolve("agent").toString(), "--duration", "15", "--metrics-port", Integer.toString(port),
          "--metrics-token", "tok"));
      URI url = URI.create("http://127.0.0.1:" + port + "/metrics");
      HttpClient http = HttpClient.newHttpClient();
      // the token check first, while the agent surely runs; the 15 s it runs bound the wait for a sent line
      await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() ->
          http.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString()).statusCode() == 401);
      await().atMost(Duration.ofSeconds(14)).ignoreExceptions().until(() -> {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(url).header("Authorization", "Bearer tok").build(),
            HttpResponse.BodyHandlers.ofString());
        // read as Prometheus reads it (its own text parser), not by a pattern of ours
        return r.statusCode() == 200 && Exposition.parse(r.body()).sum("netpulse_collector_lines_sent_total",
            l -> l.equals(Map.of("host", "metrics-host", "source", "ss-summary"))) > 0;
      });
      CollectorRun done = agent.get();
      assertThat(done.exit()).as(done.err()).isZero();
    }
  }
}
