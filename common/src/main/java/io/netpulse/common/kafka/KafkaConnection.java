package io.netpulse.common.kafka;

import java.nio.file.Path;
import java.util.Collections;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * Where a Kafka cluster is and how to talk to it: the bootstrap servers plus the client settings of a
 * {@code --kafka-config} file (security.protocol, sasl.*, ssl.*, ...). Every netpulse Kafka client starts from one.
 * The settings may hold secrets (sasl.jaas.config, ssl.*.password): {@link #toString()} and {@link #describe()}
 * name their keys only, never their values.
 *
 * @param bootstrapServers host:port,... of the cluster
 * @param clientSettings   extra client settings, never one netpulse owns (see {@link KafkaClientSettingsFile})
 * @param settingsFile     the file the settings came from, for messages; null when there are none
 */
public record KafkaConnection(String bootstrapServers, Map<String, String> clientSettings, Path settingsFile) {

  public KafkaConnection {
    if (bootstrapServers == null || bootstrapServers.isBlank()) {
      throw new IllegalArgumentException("Kafka bootstrap servers are required (host:port,...)");
    }
    clientSettings = Collections.unmodifiableMap(new TreeMap<>(clientSettings == null ? Map.of() : clientSettings));
  }

  /** A cluster reached without authentication or TLS (the embedded broker, a local one). */
  public static KafkaConnection plain(String bootstrapServers) {
    return new KafkaConnection(bootstrapServers, Map.of(), null);
  }

  /**
   * One client's configuration: this client's own settings, then the file's (which may tune what netpulse chose,
   * such as timeouts, but never hold a key netpulse owns: the file was refused then), then the bootstrap servers.
   */
  public Properties clientProperties(Map<String, ?> netpulseSettings) {
    Properties p = new Properties();
    p.putAll(netpulseSettings);
    p.putAll(clientSettings);
    p.put("bootstrap.servers", bootstrapServers);
    return p;
  }

  /** The configuration of a client that needs nothing of its own (an admin client, a reachability check). */
  public Properties clientProperties() {
    return clientProperties(Map.of());
  }

  /** The file's name, or a phrase saying there is none: for messages that tell the user what to check ("… in X"). */
  public String settingsSource() {
    return settingsFile == null ? "a --kafka-config file (none given)" : settingsFile.toString();
  }

  /** For logs: the servers and which settings were added, by key only. */
  public String describe() {
    return clientSettings.isEmpty() ? bootstrapServers
        : bootstrapServers + " (" + String.join(", ", clientSettings.keySet()) + " from " + settingsFile + ")";
  }

  /** Keys only: the values may be passwords. */
  @Override
  public String toString() {
    return "KafkaConnection[bootstrapServers=" + bootstrapServers + ", clientSettings=" + clientSettings.keySet()
        + " (values hidden), settingsFile=" + settingsFile + "]";
  }
}
