package io.netpulse.launcher.ops;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * SQL against a QuestDB in another process, over its HTTP {@code /exec?query=...}, as an operator queries the store:
 * rows keyed by column name, numbers as Long or Double, timestamps as QuestDB's ISO-8601 text.
 */
final class QuestDbHttp {

  private final String baseUrl;
  private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  QuestDbHttp(String baseUrl) {
    this.baseUrl = baseUrl;
  }

  /** @throws IOException when QuestDB does not answer or answers with an error (its message included) */
  List<Map<String, Object>> query(String sql) throws IOException {
    URI uri = URI.create(baseUrl + "/exec?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8));
    HttpResponse<byte[]> response;
    try {
      response = http.send(HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).GET().build(),
          HttpResponse.BodyHandlers.ofByteArray());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted querying " + baseUrl, e);
    }
    JsonNode body = Json.mapper().readTree(response.body());
    if (body == null || body.has("error") || response.statusCode() != 200) {
      throw new IOException("QuestDB at " + baseUrl + " answered HTTP " + response.statusCode() + ": "
          + (body == null ? "(empty)" : body.path("error").asText(body.toString())) + " for: " + sql);
    }
    List<Map<String, Object>> rows = new ArrayList<>();
    JsonNode columns = body.path("columns");
    for (JsonNode values : body.path("dataset")) {
      Map<String, Object> row = new LinkedHashMap<>();
      for (int i = 0; i < columns.size(); i++) {
        row.put(columns.get(i).path("name").asText(), value(values.get(i)));
      }
      rows.add(row);
    }
    return rows;
  }

  private static Object value(JsonNode node) {
    if (node == null || node.isNull()) {
      return null;
    }
    if (node.isIntegralNumber()) {
      return node.asLong();
    }
    if (node.isNumber()) {
      return node.asDouble();
    }
    if (node.isBoolean()) {
      return node.asBoolean();
    }
    return node.asText();
  }
}
