package io.netpulse.processor.store;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.questdb.QuestDbSqlClient;
import io.netpulse.common.json.Json;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Makes any store netpulse writes to keep one point per series and time, so that a batch written again (after a
 * store outage the writer re-reads what was not confirmed; after a processor restart a window may be emitted
 * again) replaces rather than adds. InfluxDB does so by itself: a point with the same measurement, tag set and
 * time overwrites. QuestDB keeps both unless the table deduplicates, and a table its line-protocol writer creates
 * on the first write does not: so on QuestDB (told apart by its SQL endpoint, {@code /exec}) the tables are made
 * with deduplication first, or switched to it ({@link QuestDbStoreSchema}).
 */
public final class StoreTables {

  /** What the store at a URL is, as far as duplicates go. */
  public enum Kind {
    /** QuestDB: netpulse's tables deduplicate on their tags and time. */
    QUESTDB,
    /** InfluxDB, or another store of the v2 write API without QuestDB's SQL: points overwrite by series and time. */
    INFLUXDB
  }

  private static final Logger LOG = LoggerFactory.getLogger(StoreTables.class);
  private static final Duration TIMEOUT = Duration.ofSeconds(5);

  private StoreTables() {}

  /**
   * Looks at the store and, on QuestDB, creates or alters netpulse's tables to deduplicate.
   *
   * @return what the store is; empty when it did not answer (try again later, before writing)
   */
  public static Optional<Kind> prepare(String url) {
    String base = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    HttpResponse<byte[]> probe;
    try {
      probe = HttpClient.newBuilder().connectTimeout(TIMEOUT).build().send(
          HttpRequest.newBuilder(URI.create(base + "/exec?query=" + URLEncoder.encode("select 1", StandardCharsets.UTF_8)))
              .timeout(TIMEOUT).GET().build(),
          HttpResponse.BodyHandlers.ofByteArray());
    } catch (IOException e) {
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
    if (!isQuestDbAnswer(probe)) {
      LOG.info("store at {}: not QuestDB (HTTP {} from /exec); points with the same series and time overwrite",
          base, probe.statusCode());
      return Optional.of(Kind.INFLUXDB);
    }
    QuestDbStoreSchema.apply(new QuestDbSqlClient(base)::query);
    LOG.info("store at {}: QuestDB; tables {} deduplicate on their tags and time", base, QuestDbStoreSchema.TABLES);
    return Optional.of(Kind.QUESTDB);
  }

  private static boolean isQuestDbAnswer(HttpResponse<byte[]> response) {
    if (response.statusCode() != 200) {
      return false;
    }
    try {
      JsonNode body = Json.mapper().readTree(response.body());
      return body.has("dataset") && body.has("columns");
    } catch (IOException e) {
      return false;
    }
  }
}
