package io.netpulse.launcher.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian's {@code prometheus} binary (bin/install-deps) on a loopback port with its own storage, read through its
 * HTTP API; stopped by its process handle.
 */
final class PrometheusServer implements AutoCloseable {

  private static final HttpClient HTTP = HttpClient.newHttpClient();
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Process process;
  private final URI url;
  private final Path log;

  private PrometheusServer(Process process, URI url, Path log) {
    this.process = process;
    this.url = url;
    this.log = log;
  }

  /** Starts {@code prometheus} with {@code config}, its storage and log under {@code dir}; returns once it is ready. */
  static PrometheusServer start(Path config, Path dir) throws Exception {
    int port = freePort();
    Path log = dir.resolve("prometheus.log");
    Process p = run(List.of("prometheus", "--config.file=" + config,
        "--storage.tsdb.path=" + Files.createDirectories(dir.resolve("tsdb")),
        "--web.listen-address=127.0.0.1:" + port), log);
    PrometheusServer server = new PrometheusServer(p, URI.create("http://127.0.0.1:" + port), log);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (true) {
      if (!p.isAlive()) {
        throw new AssertionError("prometheus exited " + p.exitValue() + ": " + server.logTail());
      }
      try {
        if (HTTP.send(HttpRequest.newBuilder(server.url.resolve("/-/ready")).build(),
            HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
          return server;
        }
      } catch (IOException notYet) {
        // not listening yet
      }
      if (System.nanoTime() > deadline) {
        server.close();
        throw new AssertionError("prometheus not ready in 30 s: " + server.logTail());
      }
      Thread.sleep(200);
    }
  }

  /** Starts {@code command} (prometheus or promtool) with its output in {@code output}. */
  static Process run(List<String> command, Path output) {
    try {
      return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(output.toFile()).start();
    } catch (IOException e) {
      throw new AssertionError(command.get(0) + " cannot run (" + e.getMessage() + "): bin/install-deps installs "
          + "Debian's prometheus package, which has it", e);
    }
  }

  /** /api/v1/targets' active targets. */
  List<JsonNode> activeTargets() throws Exception {
    List<JsonNode> targets = new ArrayList<>();
    api("/api/v1/targets?state=active").path("activeTargets").forEach(targets::add);
    return targets;
  }

  /** The series an instant query returns (its {@code data.result}). */
  JsonNode query(String promql) throws Exception {
    JsonNode data = api("/api/v1/query?query=" + URLEncoder.encode(promql, StandardCharsets.UTF_8));
    return data.path("result");
  }

  private JsonNode api(String pathAndQuery) throws Exception {
    HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(url.resolve(pathAndQuery))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    JsonNode body = JSON.readTree(r.body());
    if (r.statusCode() != 200 || !"success".equals(body.path("status").asText())) {
      throw new AssertionError("prometheus " + pathAndQuery + ": HTTP " + r.statusCode() + " " + r.body());
    }
    return body.path("data");
  }

  String logTail() {
    try {
      List<String> lines = Files.readAllLines(log);
      return String.join("\n", lines.subList(Math.max(0, lines.size() - 15), lines.size()));
    } catch (IOException e) {
      return "(no log: " + e.getMessage() + ")";
    }
  }

  /** A port free on 127.0.0.1, where the servers here bind (a port free on the wildcard address may not be). */
  static int freePort() {
    return io.netpulse.testbed.embedded.LocalResources.freePort();
  }

  @Override
  public void close() throws InterruptedException {
    process.destroy(); // SIGTERM: it closes its storage
    if (!process.waitFor(20, TimeUnit.SECONDS)) {
      process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }
  }
}
