package io.netpulse.common.kafka;

/** A {@code --kafka-config} file netpulse cannot use; the message is one line naming the file and what is wrong. */
public final class KafkaSettingsException extends IllegalArgumentException {

  public KafkaSettingsException(String message) {
    super(message);
  }

  public KafkaSettingsException(String message, Throwable cause) {
    super(message, cause);
  }
}
