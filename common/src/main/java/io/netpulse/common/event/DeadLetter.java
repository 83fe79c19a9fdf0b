package io.netpulse.common.event;

/**
 * A record that could not be processed, kept whole with the reason so nothing is lost.
 *
 * @param topic topic the record came from
 * @param key   its original key
 * @param value its raw value (as text)
 * @param error what was wrong with it, naming the field or line
 */
public record DeadLetter(int schema, String topic, String key, String value, String error, long ts) {

  public static final int SCHEMA = 1;

  public static DeadLetter of(String topic, String key, String value, String error, long ts) {
    return new DeadLetter(SCHEMA, topic, key, value, error, ts);
  }
}
