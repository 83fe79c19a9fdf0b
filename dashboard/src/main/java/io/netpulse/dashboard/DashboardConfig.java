package io.netpulse.dashboard;

import io.netpulse.common.Topics;
import io.netpulse.common.kafka.KafkaConnection;

/**
 * How to start a {@link Dashboard}.
 *
 * @param kafka            the Kafka the live feed reads from
 * @param topics           topic names (prefix); the feed reads {@link Topics#rates()}
 * @param bindHost         address the HTTP server listens on; null means 127.0.0.1
 * @param port             TCP port; 0 picks a free one
 * @param token            access token; null means none on loopback, a generated one elsewhere
 */
public record DashboardConfig(
    KafkaConnection kafka, Topics topics, String bindHost, int port, String token) {

  public static final String DEFAULT_BIND_HOST = "127.0.0.1";

  public DashboardConfig {
    if (kafka == null) {
      throw new IllegalArgumentException("dashboard: kafka is required (the bootstrap servers of Kafka)");
    }
    if (topics == null) {
      topics = Topics.defaults();
    }
    if (bindHost == null || bindHost.isBlank()) {
      bindHost = DEFAULT_BIND_HOST;
    }
    if (port < 0 || port > 65535) {
      throw new IllegalArgumentException("dashboard: port " + port + " is not in 0..65535");
    }
    if (token != null && token.isBlank()) {
      token = null;
    }
  }

  /** Loopback on a free port, no token: what the demo and the tests use. */
  public static DashboardConfig local(KafkaConnection kafka, Topics topics) {
    return new DashboardConfig(kafka, topics, DEFAULT_BIND_HOST, 0, null);
  }
}
