package io.netpulse.launcher.services;

import io.netpulse.common.catalog.Sources;
import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.json.Json;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * Records on {@code netpulse.lines} that no parser can turn into samples, as a broken or hostile producer would send
 * them, and how to find each one's dead letter on {@code netpulse.dlq}. Every record has a key of its own (the DLQ
 * keeps the original key), so its dead letter is found by that key's prefix even if a long key is shortened there.
 */
final class BadRecords {

  static final String BAD_HOST = "accept-bad";
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneOffset.UTC);

  /**
   * @param oversize its dead letter, the raw value copied into JSON, is over the processor producer's 1 MB
   *     max.request.size
   */
  record Bad(String name, String keyPrefix, String key, byte[] value, boolean oversize) {}

  /** A produced record's place on {@code lines}. */
  record Produced(Bad bad, int partition, long offset) {}

  private BadRecords() {}

  /** Bad records whose dead letters are small. */
  static List<Bad> small(String tag, long nowMs) {
    List<Bad> out = new ArrayList<>();
    out.add(bad(tag, "not-json", "this is not JSON {".getBytes(StandardCharsets.UTF_8), false));
    out.add(bad(tag, "no-host-source-line", ("{\"schema\":1,\"seq\":7,\"ts\":" + nowMs + "}")
        .getBytes(StandardCharsets.UTF_8), false));
    out.add(bad(tag, "unknown-source", Json.bytes(LineEvent.of(BAD_HOST, "no-such-tool", null, 1, nowMs,
        "12 34 56")), false));
    // a row sar could print, but with a letter O in txpck/s
    out.add(bad(tag, "garbled-sar-number", Json.bytes(LineEvent.of(BAD_HOST, Sources.SAR_DEV, null, 2, nowMs,
        CLOCK.format(Instant.ofEpochMilli(nowMs)) + "         eth0      1.00      2.0O      3.00      4.00      0.00"
            + "      0.00      0.00      0.00")), false));
    ByteArrayOutputStream utf8 = new ByteArrayOutputStream();
    utf8.writeBytes(("{\"schema\":1,\"host\":\"" + BAD_HOST + "\",\"source\":\"sar-dev\",\"seq\":3,\"ts\":" + nowMs
        + ",\"line\":\"bad ").getBytes(StandardCharsets.UTF_8));
    utf8.writeBytes(new byte[] {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xFE});
    utf8.writeBytes(" bytes\"}".getBytes(StandardCharsets.UTF_8));
    out.add(bad(tag, "invalid-utf8", utf8.toByteArray(), false));
    out.add(bad(tag, "empty-value", new byte[0], false));
    out.add(bad(tag, "null-value", null, false));
    return out;
  }

  /**
   * Bad records whose dead letters are over 1 MB: a valid line event whose line is 600 KB of {@code "} (1.2 MB once
   * JSON-escaped in the event, more in the dead letter's copy), and a 700 KB key on a value that is not JSON (the dead
   * letter carries the key twice: as its key and in its body).
   */
  static List<Bad> oversize(String tag, long nowMs) {
    List<Bad> out = new ArrayList<>();
    out.add(bad(tag, "quotes-600kb", Json.bytes(LineEvent.of(BAD_HOST, Sources.SAR_DEV, null, 4, nowMs,
        "\"".repeat(600 * 1024))), true));
    String prefix = "bad-" + tag + "-huge-key";
    out.add(new Bad("huge-key", prefix, prefix + "-" + "k".repeat(700 * 1024),
        "a 700 KB key on a value that is not JSON".getBytes(StandardCharsets.UTF_8), true));
    return out;
  }

  private static Bad bad(String tag, String name, byte[] value, boolean oversize) {
    String key = "bad-" + tag + "-" + name;
    return new Bad(name, key, key, value, oversize);
  }

  /**
   * Sends {@code bads} to {@code topic} and waits for the broker's acknowledgement. Compressed, and with a large
   * max.request.size: the broker takes the 1.2 MB event since its compressed batch is small, as it would from any
   * producer configured so.
   */
  static List<Produced> produce(String bootstrap, String topic, List<Bad> bads) throws Exception {
    Properties p = new Properties();
    p.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    p.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "lz4");
    p.put(ProducerConfig.MAX_REQUEST_SIZE_CONFIG, 8 * 1024 * 1024);
    p.put(ProducerConfig.BUFFER_MEMORY_CONFIG, 32L * 1024 * 1024);
    List<Produced> out = new ArrayList<>();
    try (KafkaProducer<String, byte[]> producer =
        new KafkaProducer<>(p, new StringSerializer(), new ByteArraySerializer())) {
      for (Bad b : bads) {
        RecordMetadata m = producer.send(new ProducerRecord<>(topic, b.key(), b.value())).get(30, TimeUnit.SECONDS);
        out.add(new Produced(b, m.partition(), m.offset()));
      }
    }
    return out;
  }

  /** A dead letter: its Kafka key and its body (null when the body is not JSON). */
  record DeadLetterSeen(String key, JsonNode body, int bytes, int partition, long offset) {

    String error() {
      return body == null ? null : body.path("error").asText(null);
    }

    String bodyKey() {
      return body == null ? null : body.path("key").asText(null);
    }
  }

  static List<DeadLetterSeen> deadLetters(Map<Integer, List<ConsumerRecord<String, byte[]>>> dlq) {
    List<DeadLetterSeen> out = new ArrayList<>();
    dlq.values().forEach(records -> records.forEach(r -> {
      JsonNode body;
      try {
        body = r.value() == null ? null : Json.mapper().readTree(r.value());
      } catch (java.io.IOException e) {
        body = null;
      }
      out.add(new DeadLetterSeen(r.key(), body, r.value() == null ? 0 : r.value().length, r.partition(), r.offset()));
    }));
    return out;
  }

  /** The dead letter of each produced record, by name; missing names have none yet. */
  static Map<String, DeadLetterSeen> match(List<Produced> produced, List<DeadLetterSeen> seen) {
    Map<String, DeadLetterSeen> out = new HashMap<>();
    for (Produced p : produced) {
      String prefix = p.bad().keyPrefix();
      for (DeadLetterSeen d : seen) {
        if (startsWith(d.key(), prefix) || startsWith(d.bodyKey(), prefix)) {
          out.put(p.bad().name(), d);
          break;
        }
      }
    }
    return out;
  }

  /** The exact key, or a longer one that goes on with a dash (the huge key, perhaps shortened). */
  private static boolean startsWith(String s, String prefix) {
    return s != null && (s.equals(prefix) || s.startsWith(prefix + "-"));
  }

  /**
   * A dead letter too large to copy whole is cut, and says so: {@code truncated}, the original's size
   * ({@code valueBytes}), where it is ({@code partition}, {@code offset}) and its SHA-256 ({@code valueSha256}), so
   * that the original can be found and checked.
   *
   * @return null if the dead letter is whole or identifies its cut record, else what it lacks
   */
  static String oversizeProblem(Produced p, DeadLetterSeen d) {
    String original = p.bad().value() == null ? null : new String(p.bad().value(), StandardCharsets.UTF_8);
    JsonNode body = d.body();
    String copy = body == null ? null : body.path("value").asText(null);
    if (original != null && original.equals(copy) && !body.path("truncated").asBoolean(false)) {
      return null; // kept whole
    }
    if (body == null) {
      return "not JSON";
    }
    List<String> lacks = new ArrayList<>();
    int size = p.bad().value() == null ? 0 : p.bad().value().length;
    if (!body.path("truncated").asBoolean(false)) {
      lacks.add("truncated=true");
    }
    if (body.path("valueBytes").asLong(-1) != size) {
      lacks.add("valueBytes=" + size);
    }
    if (body.path("partition").asInt(-1) != p.partition() || body.path("offset").asLong(-1) != p.offset()) {
      lacks.add("partition " + p.partition() + " offset " + p.offset());
    }
    String sha = sha256(p.bad().value());
    if (!sha.equals(body.path("valueSha256").asText(""))) {
      lacks.add("valueSha256=" + sha);
    }
    if (copy != null && original != null && !original.startsWith(copy)) {
      lacks.add("a copy that is the original's beginning");
    }
    return lacks.isEmpty() ? null : "lacks " + String.join(", ", lacks) + "; its fields: " + fieldSummary(d);
  }

  private static String sha256(byte[] value) {
    try {
      return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance("SHA-256")
          .digest(value == null ? new byte[0] : value));
    } catch (java.security.NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  /** A dead letter's fields with long values cut, for messages. */
  static String fieldSummary(DeadLetterSeen d) {
    if (d.body() == null) {
      return "(not JSON, " + d.bytes() + " bytes)";
    }
    StringBuilder sb = new StringBuilder();
    d.body().fields().forEachRemaining(e -> {
      String v = e.getValue().toString();
      sb.append(e.getKey()).append('=').append(v.length() > 80 ? v.substring(0, 80) + "...(" + v.length() + ")" : v)
          .append(' ');
    });
    return sb.toString().strip();
  }
}
