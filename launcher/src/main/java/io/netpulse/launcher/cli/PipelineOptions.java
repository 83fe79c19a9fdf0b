package io.netpulse.launcher.cli;

import io.netpulse.common.Topics;
import io.netpulse.common.kafka.KafkaClientSettingsFile;
import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.common.kafka.KafkaSettingsException;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Where the pipeline's parts are: Kafka, the store, the data dir. Shared by every command. */
public final class PipelineOptions {

  @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT,...",
      defaultValue = "${env:NETPULSE_BOOTSTRAP_SERVERS}",
      description = "Kafka to use. Default: bootstrap.servers of --kafka-config, else an embedded single-node "
          + "broker under --data-dir.")
  public String bootstrapServers;

  @Option(names = "--kafka-config", paramLabel = "FILE", defaultValue = "${env:NETPULSE_KAFKA_CONFIG}",
      description = "Kafka client settings for an external Kafka (security.protocol, sasl.*, ssl.*, ...): a "
          + "properties file as Kafka's own tools take with --command-config. Its bootstrap.servers is used when "
          + "--bootstrap-servers is not given. Values are never logged.")
  public Path kafkaConfig;

  @Option(names = "--data-dir", paramLabel = "DIR",
      defaultValue = "${env:NETPULSE_DATA_DIR:-./.netpulse}",
      description = "Where embedded Kafka, the embedded store and stream state live (default: ${DEFAULT-VALUE}).")
  public Path dataDir;

  @Option(names = "--topic-prefix", defaultValue = "${env:NETPULSE_TOPIC_PREFIX:-netpulse.}",
      description = "Prefix of every topic (default: ${DEFAULT-VALUE}).")
  public String topicPrefix;

  @Option(names = "--partitions", defaultValue = "${env:NETPULSE_PARTITIONS:-3}",
      description = "Partitions of topics netpulse creates (default: ${DEFAULT-VALUE}).")
  public int partitions;

  @Option(names = "--kafka-port", defaultValue = "${env:NETPULSE_KAFKA_PORT:-0}",
      description = "Client port of the embedded broker on 127.0.0.1 (default: a free port).")
  public int kafkaPort;

  @Option(names = "--influx-url", paramLabel = "URL", defaultValue = "${env:NETPULSE_INFLUX_URL}",
      description = "InfluxDB 2 to write to. Default: an embedded QuestDB under --data-dir, "
          + "written through the same InfluxDB v2 write API.")
  public String influxUrl;

  @Option(names = "--influx-org", defaultValue = "${env:NETPULSE_INFLUX_ORG:-netpulse}",
      description = "InfluxDB organisation (default: ${DEFAULT-VALUE}).")
  public String influxOrg;

  @Option(names = "--influx-bucket", defaultValue = "${env:NETPULSE_INFLUX_BUCKET:-netpulse}",
      description = "InfluxDB bucket (default: ${DEFAULT-VALUE}).")
  public String influxBucket;

  @Option(names = "--influx-token-file", paramLabel = "FILE",
      defaultValue = "${env:NETPULSE_INFLUX_TOKEN_FILE}",
      description = "File holding the InfluxDB token (or set NETPULSE_INFLUX_TOKEN). Never logged.")
  public Path influxTokenFile;

  @Option(names = "--store-port", defaultValue = "${env:NETPULSE_STORE_PORT:-0}",
      description = "HTTP port of the embedded store on 127.0.0.1 (default: a free port).")
  public int storePort;

  /**
   * The external Kafka named by --bootstrap-servers and/or --kafka-config; empty when neither names one (the
   * embedded broker is meant then).
   */
  public Optional<KafkaConnection> externalKafka() {
    try {
      return KafkaClientSettingsFile.resolve(bootstrapServers, kafkaConfig);
    } catch (KafkaSettingsException e) {
      throw new UserError(e.getMessage());
    }
  }

  /** As {@link #externalKafka()}, for a command that cannot run without one. */
  public KafkaConnection requireExternalKafka(String command, String purpose) {
    return externalKafka().orElseThrow(() -> new UserError(command + " needs --bootstrap-servers (or "
        + "NETPULSE_BOOTSTRAP_SERVERS, or bootstrap.servers in --kafka-config)" + purpose
        + "; 'netpulse demo' runs everything embedded"));
  }

  public Topics topics() {
    return new Topics(topicPrefix);
  }

  public char[] influxToken() {
    if (influxTokenFile != null) {
      try {
        return java.nio.file.Files.readString(influxTokenFile).strip().toCharArray();
      } catch (java.io.IOException e) {
        throw new UserError("cannot read --influx-token-file " + influxTokenFile + ": " + e.getMessage());
      }
    }
    String env = System.getenv("NETPULSE_INFLUX_TOKEN");
    return env == null ? "netpulse".toCharArray() : env.toCharArray();
  }
}
