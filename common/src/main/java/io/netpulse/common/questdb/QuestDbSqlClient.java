package io.netpulse.common.questdb;

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

/** SQL over QuestDB's HTTP {@code /exec} endpoint, rows keyed by column name. */
public final class QuestDbSqlClient {

  static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(5);
  static final Duration QUERY_TIMEOUT = Duration.ofSeconds(30);

  private final String baseUrl;
  private final HttpClient http;

  public QuestDbSqlClient(String baseUrl) {
    this.baseUrl = baseUrl;
    this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).build();
  }

  public List<Map<String, Object>> query(String sql) {
    URI uri = URI.create(baseUrl + "/exec?query=" + URLEncoder.encode(sql, StandardCharsets.UTF_8));
    HttpRequest request = HttpRequest.newBuilder(uri).timeout(QUERY_TIMEOUT).GET().build();
    HttpResponse<byte[]> response;
    try {
      response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      throw new QuestDbQueryException("QuestDB at " + baseUrl + " did not answer: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new QuestDbQueryException("interrupted while querying QuestDB at " + baseUrl, e);
    }
    JsonNode body;
    try {
      body = Json.mapper().readTree(response.body());
    } catch (IOException e) {
      throw new QuestDbQueryException("QuestDB answered HTTP " + response.statusCode()
          + " with a body that is not JSON for: " + sql);
    }
    if (body.has("error")) {
      throw new QuestDbQueryException(
          "QuestDB: " + body.get("error").asText() + " (at position " + body.path("position").asInt(-1)
              + " of: " + sql + ")");
    }
    if (response.statusCode() != 200) {
      throw new QuestDbQueryException("QuestDB answered HTTP " + response.statusCode() + " for: " + sql);
    }
    return rows(body);
  }

  private static List<Map<String, Object>> rows(JsonNode body) {
    List<Map<String, Object>> rows = new ArrayList<>();
    JsonNode columns = body.path("columns");
    for (JsonNode values : body.path("dataset")) {
      Map<String, Object> row = new LinkedHashMap<>();
      for (int i = 0; i < columns.size(); i++) {
        row.put(columns.get(i).get("name").asText(), value(values.get(i)));
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
    return node.isTextual() ? node.asText() : node.toString();
  }
}
