package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.type.TypeReference;
import io.netpulse.common.Topics;
import io.netpulse.common.event.RateEvent;
import io.netpulse.common.json.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Rates produced to a real broker come out of the dashboard's SSE feed and JSON API. */
@Tag("kafka")
class DashboardLiveFeedTest {

  @RegisterExtension static final ClassBroker BROKER = new ClassBroker();
  static final HttpClient HTTP = HttpClient.newHttpClient();

  @Test
  void ratesReachSseAndLatestApi() throws Exception {
    Topics topics = new Topics("live1.");
    BROKER.kafka().createTopics(topics, 2);
    try (Dashboard dashboard = Dashboard.start(DashboardConfig.local(BROKER.kafka().connection(), topics));
        RateTraffic traffic = new RateTraffic(BROKER.kafka().bootstrapServers(), topics.metrics())) {
      dashboard.awaitLiveFeed(Duration.ofSeconds(30));
      BlockingQueue<String> sse = new LinkedBlockingQueue<>();
      CompletableFuture<HttpResponse<Stream<String>>> stream = HTTP.sendAsync(
          HttpRequest.newBuilder(URI.create(dashboard.url() + "events")).build(),
          HttpResponse.BodyHandlers.ofLines());
      HttpResponse<Stream<String>> events = stream.get(10, TimeUnit.SECONDS);
      assertThat(events.statusCode()).isEqualTo(200);
      assertThat(events.headers().firstValue("content-type")).hasValueSatisfying(
          v -> assertThat(v).startsWith("text/event-stream"));
      Thread reader = new Thread(() -> {
        try {
          events.body()
              .filter(line -> line.startsWith("data: "))
              .forEach(line -> sse.add(line.substring("data: ".length())));
        } catch (java.io.UncheckedIOException closedAtTestEnd) {
          // the test closed the stream
        }
      });
      reader.setDaemon(true);
      reader.start();

      long t0 = System.currentTimeMillis();
      List<RateEvent> sent = List.of(
          RateTraffic.rate("sut-1", "eth0", "rx_bps", t0, 9_412_345_678.0),
          RateTraffic.rate("sut-1", "eth0", "rx_pps", t0, 1_234_567.0),
          RateTraffic.rate("peer-2", "ens5", "rx_bps", t0, 512_000_000.0),
          RateTraffic.rate("sut-1", "eth0", "rx_bps", t0 + 1000, 9_398_765_432.0));
      traffic.sendRaw("bad", "{not json".getBytes(StandardCharsets.UTF_8)); // must be skipped, not fatal
      sent.forEach(traffic::send);

      List<RateEvent> received = new ArrayList<>();
      while (received.size() < sent.size()) {
        String data = sse.poll(15, TimeUnit.SECONDS);
        assertThat(data).as("SSE rate %d of %d", received.size() + 1, sent.size()).isNotNull();
        received.add(Json.read(data.getBytes(StandardCharsets.UTF_8), RateEvent.class));
      }
      // keys differ, so partitions (and order across series) may differ: compare as sets
      assertThat(received).containsExactlyInAnyOrderElementsOf(sent);

      List<RateEvent> latest = getJson(dashboard.url() + "api/rates/latest", new TypeReference<>() {});
      assertThat(latest).containsExactly(sent.get(2), sent.get(3), sent.get(1)); // newest per series, sorted

      List<RateStore.Point> history = getJson(
          dashboard.url() + "api/rates/history?host=sut-1&iface=eth0&metric=rx_bps", new TypeReference<>() {});
      assertThat(history).containsExactly(new RateStore.Point(sent.get(0).windowEnd(), sent.get(0).mean()),
          new RateStore.Point(sent.get(3).windowEnd(), sent.get(3).mean()));

      HttpResponse<String> health = get(dashboard.url() + "health");
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).isEqualTo("{\"status\":\"UP\"}");

      HttpResponse<String> badQuery = get(dashboard.url() + "api/rates/history?iface=eth0");
      assertThat(badQuery.statusCode()).isEqualTo(400);
      assertThat(badQuery.body()).contains("host and metric");
      events.body().close();
    }
  }

  @Test
  void pageAndUplotAssetsAreServedFromTheJar() throws Exception {
    Topics topics = new Topics("live2.");
    try (Dashboard dashboard = Dashboard.start(DashboardConfig.local(BROKER.kafka().connection(), topics))) {
      assertThat(dashboard.url()).isEqualTo("http://127.0.0.1:" + dashboard.port() + "/");
      HttpResponse<String> page = get(dashboard.url());
      assertThat(page.statusCode()).isEqualTo(200);
      assertThat(page.body()).contains("id=\"rx-bps\"", "/assets/uplot/uPlot.iife.min.js");
      assertThat(page.headers().firstValue("content-security-policy")).hasValueSatisfying(
          v -> assertThat(v).contains("script-src 'self'"));
      HttpResponse<String> uplot = get(dashboard.url() + "assets/uplot/uPlot.iife.min.js");
      assertThat(uplot.statusCode()).isEqualTo(200);
      assertThat(uplot.body()).contains("uPlot");
      assertThat(get(dashboard.url() + "app.js").statusCode()).isEqualTo(200);
    }
  }

  static HttpResponse<String> get(String url) throws Exception {
    return HTTP.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
        HttpResponse.BodyHandlers.ofString());
  }

  static <T> T getJson(String url, TypeReference<T> type) throws Exception {
    HttpResponse<String> response = get(url);
    assertThat(response.statusCode()).as("GET %s: %s", url, response.body()).isEqualTo(200);
    assertThat(response.headers().firstValue("content-type")).hasValue("application/json");
    return Json.mapper().readValue(response.body(), type);
  }
}
