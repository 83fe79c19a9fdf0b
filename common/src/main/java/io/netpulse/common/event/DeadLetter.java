package io.netpulse.common.event;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * A record that could not be processed, with the reason, and where the original is: nothing is lost.
 * The copy is bounded ({@link #MAX_VALUE_BYTES}, {@link #MAX_KEY_BYTES}, {@link #MAX_ERROR_CHARS}) so that a dead
 * letter can always be written: a 600 KB line of quote characters escapes to 1.2 MB of JSON, over a producer's
 * 1 MiB request limit, and under exactly-once one unwritable record aborts every transaction that holds it,
 * again and again. A truncated copy says so, with the original's size and SHA-256, and the original stays at
 * {@code topic}/{@code partition}/{@code offset}.
 *
 * @param topic       topic the record came from
 * @param partition   its partition, null where unknown
 * @param offset      its offset there, null where unknown
 * @param key         its original key (truncated past {@link #MAX_KEY_BYTES} UTF-8 bytes)
 * @param value       its raw value as text (the first {@link #MAX_VALUE_BYTES} bytes when longer)
 * @param valueBytes  the original value's size in bytes, null for a null value
 * @param valueSha256 SHA-256 of the original value's bytes (hex), null for a null value
 * @param truncated   whether key or value here is shorter than the original
 * @param error       what was wrong with it, naming the line and field
 * @param ts          when it was dead-lettered, epoch ms
 */
public record DeadLetter(int schema, String topic, Integer partition, Long offset, String key, String value,
    Long valueBytes, String valueSha256, boolean truncated, String error, long ts) {

  /** Version 1 still: the fields after {@code topic} that locate and describe the original were added, none changed. */
  public static final int SCHEMA = 1;
  /** JSON escaping grows text at most 6× (\\u0001): 6 × 128 KiB stays under Kafka's default 1 MiB request. */
  public static final int MAX_VALUE_BYTES = 128 * 1024;
  public static final int MAX_KEY_BYTES = 1024;
  public static final int MAX_ERROR_CHARS = 4096;

  /** A dead letter for a record whose partition and offset are not known here. */
  public static DeadLetter of(String topic, String key, String value, String error, long ts) {
    return of(topic, null, null, key, value == null ? null : value.getBytes(StandardCharsets.UTF_8), error, ts);
  }

  /** A bounded copy of the raw value {@code raw} read at {@code topic}/{@code partition}/{@code offset}. */
  public static DeadLetter of(String topic, Integer partition, Long offset, String key, byte[] raw, String error,
      long ts) {
    String boundedKey = boundedKey(key);
    String value = null;
    boolean truncated = boundedKey != null && !boundedKey.equals(key);
    if (raw != null) {
      int keep = raw.length <= MAX_VALUE_BYTES ? raw.length : utf8Boundary(raw, MAX_VALUE_BYTES);
      value = new String(raw, 0, keep, StandardCharsets.UTF_8);
      truncated |= keep < raw.length;
    }
    String reason = error == null ? "unknown" : error;
    if (reason.length() > MAX_ERROR_CHARS) {
      reason = reason.substring(0, MAX_ERROR_CHARS) + "… (" + reason.length() + " characters)";
    }
    return new DeadLetter(SCHEMA, topic, partition, offset, boundedKey, value,
        raw == null ? null : (long) raw.length, raw == null ? null : sha256(raw), truncated, reason, ts);
  }

  /** A record key cut to {@link #MAX_KEY_BYTES} UTF-8 bytes, for the dead letter's own record key too. */
  public static String boundedKey(String key) {
    if (key == null) {
      return null;
    }
    byte[] bytes = key.getBytes(StandardCharsets.UTF_8);
    if (bytes.length <= MAX_KEY_BYTES) {
      return key;
    }
    return new String(bytes, 0, utf8Boundary(bytes, MAX_KEY_BYTES), StandardCharsets.UTF_8);
  }

  /** The largest cut ≤ {@code max} that does not split a UTF-8 sequence. */
  private static int utf8Boundary(byte[] bytes, int max) {
    int cut = max;
    while (cut > 0 && (bytes[cut] & 0xC0) == 0x80) {
      cut--;
    }
    return cut;
  }

  private static String sha256(byte[] raw) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(raw));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java has SHA-256", e);
    }
  }
}
