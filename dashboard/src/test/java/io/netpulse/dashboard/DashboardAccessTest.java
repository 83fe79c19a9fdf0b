package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netpulse.common.Topics;
import io.netpulse.common.kafka.KafkaConnection;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Token rules for non-loopback binds and the start errors a user sees. */
@Tag("kafka")
class DashboardAccessTest {

  @RegisterExtension static final ClassBroker BROKER = new ClassBroker();
  static final HttpClient HTTP = HttpClient.newHttpClient(); // no cookie handler: every request stands alone
  static final Topics TOPICS = new Topics("access.");

  @Test
  void wildcardBindGeneratesTokenAndRefusesRequestsWithoutIt() throws Exception {
    try (Dashboard dashboard = Dashboard.start(
        new DashboardConfig(BROKER.kafka().connection(), TOPICS, "0.0.0.0", 0, null))) {
      String token = dashboard.token();
      assertThat(token).as("generated token").isNotBlank().hasSizeGreaterThanOrEqualTo(40);
      String base = "http://127.0.0.1:" + dashboard.port() + "/";
      assertThat(dashboard.url()).isEqualTo(base + "?token=" + token);

      for (String path : new String[] {"", "app.js", "events", "api/rates/latest", "assets/uplot/uPlot.min.css",
          "runs.html", "fleet.html", "results.html", "api/runs", "api/results", "api/hosts", "api/plans", "metrics",
          "api/executions", "api/compare?a=x&b=y",
          "events?feed=fleet"}) {
        HttpResponse<String> refused = get(base + path, null, null);
        assertThat(refused.statusCode()).as("GET /%s without token", path).isEqualTo(401);
        assertThat(refused.body()).contains("access token");
      }
      assertThat(get(base + "api/rates/latest?token=wrong" + token, null, null).statusCode()).isEqualTo(401);
      assertThat(get(base + "api/rates/latest", "Bearer " + token + "x", null).statusCode()).isEqualTo(401);

      HttpResponse<String> health = get(base + "health", null, null);
      assertThat(health.statusCode()).isEqualTo(200);
      assertThat(health.body()).isEqualTo("{\"status\":\"UP\"}");

      HttpResponse<String> page = get(dashboard.url(), null, null);
      assertThat(page.statusCode()).isEqualTo(200);
      String setCookie = page.headers().firstValue("set-cookie").orElseThrow();
      assertThat(setCookie).startsWith(AccessToken.COOKIE + "=" + token).contains("SameSite=Strict")
          .containsIgnoringCase("HttpOnly"); // Netty spells it HTTPOnly; attribute names are case-insensitive

      assertThat(get(base + "api/rates/latest", "Bearer " + token, null).statusCode()).isEqualTo(200);
      assertThat(get(base + "api/rates/latest", null, AccessToken.COOKIE + "=" + token).statusCode())
          .isEqualTo(200);
    }
  }

  @Test
  void givenTokenIsUsedAsIs() throws Exception {
    try (Dashboard dashboard = Dashboard.start(
        new DashboardConfig(BROKER.kafka().connection(), TOPICS, "0.0.0.0", 0, "s3cret-token"))) {
      assertThat(dashboard.token()).isEqualTo("s3cret-token");
      assertThat(dashboard.url()).endsWith("/?token=s3cret-token");
      assertThat(get(dashboard.url(), null, null).statusCode()).isEqualTo(200);
      assertThat(get("http://127.0.0.1:" + dashboard.port() + "/", null, null).statusCode()).isEqualTo(401);
    }
  }

  @Test
  void loopbackNeedsNoToken() throws Exception {
    try (Dashboard dashboard = Dashboard.start(DashboardConfig.local(BROKER.kafka().connection(), TOPICS))) {
      assertThat(dashboard.token()).isNull();
      assertThat(dashboard.url()).doesNotContain("token");
      assertThat(get(dashboard.url() + "api/rates/latest", null, null).statusCode()).isEqualTo(200);
    }
  }

  @Test
  void portInUseIsOneClearLine() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
      int port = taken.getLocalPort();
      assertThatThrownBy(() -> Dashboard.start(
              new DashboardConfig(BROKER.kafka().connection(), TOPICS, "127.0.0.1", port, null)))
          .isInstanceOf(DashboardStartException.class)
          .hasMessage("port " + port + " on 127.0.0.1 is already in use; choose another with --dashboard-port");
    }
  }

  @Test
  void unknownBindHostIsNamed() {
    assertThatThrownBy(() -> Dashboard.start(
            new DashboardConfig(BROKER.kafka().connection(), TOPICS, "no-such-host.invalid", 0, null)))
        .isInstanceOf(DashboardStartException.class)
        .hasMessage("dashboard bind host 'no-such-host.invalid' is not a known address");
  }

  /**
   * A client that asks for HTTP/2 over clear text (Java's HttpClient does by default, on each new connection) is
   * answered in HTTP/1.1, whole: with the upgrade accepted, about one such first request in ten failed on a body the
   * size of /metrics.
   */
  @Test
  void aClientAskingForHttp2OverClearTextGetsWholeHttp11Answers() throws Exception {
    try (Dashboard dashboard = Dashboard.start(DashboardConfig.local(BROKER.kafka().connection(), TOPICS))) {
      URI metrics = URI.create("http://127.0.0.1:" + dashboard.port() + "/metrics");
      int expected = -1;
      for (int i = 0; i < 40; i++) {
        HttpClient fresh = HttpClient.newHttpClient(); // a new connection each time: each one offers the upgrade
        HttpResponse<String> r = fresh.sendAsync(HttpRequest.newBuilder(metrics).timeout(Duration.ofSeconds(10))
            .build(), HttpResponse.BodyHandlers.ofString()).get(20, TimeUnit.SECONDS);
        assertThat(r.version()).as("request %d", i).isEqualTo(HttpClient.Version.HTTP_1_1);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.body()).contains("# TYPE jvm_memory_used_bytes gauge");
        expected = Math.max(expected, r.body().length());
      }
      assertThat(expected).as("a /metrics body larger than HTTP/2's 16 KiB frames").isGreaterThan(16_384);
    }
  }

  @Test
  void unusableBootstrapServersAreNamed() {
    assertThatThrownBy(() -> Dashboard.start(DashboardConfig.local(KafkaConnection.plain("no-port-here"), TOPICS)))
        .isInstanceOf(DashboardStartException.class)
        .hasMessageStartingWith("dashboard cannot use Kafka bootstrap servers 'no-port-here': ");
  }

  @Test
  void badConfigNamesTheField() {
    assertThatThrownBy(() -> new DashboardConfig(null, TOPICS, null, 0, null))
        .hasMessageContaining("bootstrap servers");
    assertThatThrownBy(() -> new DashboardConfig(KafkaConnection.plain("127.0.0.1:9092"), TOPICS, null, 70000, null))
        .hasMessageContaining("port 70000");
  }

  static HttpResponse<String> get(String url, String authorization, String cookie) throws Exception {
    HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10));
    if (authorization != null) {
      request.header("Authorization", authorization);
    }
    if (cookie != null) {
      request.header("Cookie", cookie);
    }
    return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
  }
}
