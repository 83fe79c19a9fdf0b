package io.netpulse.cli.command;

import io.netpulse.cli.options.OptionChecks;
import io.netpulse.cli.stack.StackSettings;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * The whole pipeline in one command ({@code run}, {@code demo}): Kafka (embedded unless named), the store (embedded
 * unless named), the data dir they live in.
 */
public final class PipelineOptions extends KafkaOptions {

  @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT,...",
      defaultValue = "${env:NETPULSE_BOOTSTRAP_SERVERS}",
      description = "Kafka to use. Default: bootstrap.servers of --kafka-config, else an embedded single-node "
          + "broker under --data-dir, started and stopped with this command.")
  public String bootstrapServers;

  @Option(names = "--data-dir", paramLabel = "DIR",
      defaultValue = "${env:NETPULSE_DATA_DIR:-./.netpulse}",
      description = "Where the embedded Kafka (kafka/), the embedded store (questdb/) and the processor's stream "
          + "state (streams/) live (default: ${DEFAULT-VALUE}).")
  public Path dataDir;

  @Option(names = "--partitions", paramLabel = "N", defaultValue = "${env:NETPULSE_PARTITIONS:-3}",
      description = "Partitions of the topics this command creates when they are missing (default: "
          + "${DEFAULT-VALUE}).")
  public int partitions;

  @Option(names = "--kafka-port", paramLabel = "PORT", defaultValue = "${env:NETPULSE_KAFKA_PORT:-0}",
      description = "Client port of the embedded broker on 127.0.0.1 (default: a free port). Unused with an "
          + "external Kafka.")
  public int kafkaPort;

  @Option(names = "--influx-url", paramLabel = "URL", defaultValue = "${env:NETPULSE_INFLUX_URL}",
      description = "InfluxDB 2 to write rates and results to. Default: an embedded QuestDB under --data-dir, "
          + "written through the same InfluxDB v2 write API.")
  public String influxUrl;

  @Option(names = "--influx-org", paramLabel = "ORG", defaultValue = "${env:NETPULSE_INFLUX_ORG:-netpulse}",
      description = "InfluxDB organisation (default: ${DEFAULT-VALUE}; the embedded store ignores it).")
  public String influxOrg;

  @Option(names = "--influx-bucket", paramLabel = "BUCKET", defaultValue = "${env:NETPULSE_INFLUX_BUCKET:-netpulse}",
      description = "InfluxDB bucket (default: ${DEFAULT-VALUE}; the embedded store ignores it).")
  public String influxBucket;

  @Option(names = "--influx-token-file", paramLabel = "FILE",
      defaultValue = "${env:NETPULSE_INFLUX_TOKEN_FILE}",
      description = "File holding the InfluxDB token (or set NETPULSE_INFLUX_TOKEN). Never logged.")
  public Path influxTokenFile;

  @Option(names = "--store-port", paramLabel = "PORT", defaultValue = "${env:NETPULSE_STORE_PORT:-0}",
      description = "HTTP port of the embedded store on 127.0.0.1 (default: a free port). Unused with --influx-url.")
  public int storePort;

  @Override
  protected String bootstrapServers() {
    return bootstrapServers;
  }

  public char[] influxToken() {
    return InfluxToken.read(influxTokenFile);
  }

  /** These options and the dashboard's as the values the pipeline stack starts from. */
  public StackSettings stackSettings(DashboardOptions dashboard) {
    return new StackSettings(dataDir, externalKafka(), kafkaPort, partitions, topics(), influxUrl, influxToken(),
        influxOrg, influxBucket, storePort, dashboard.host, dashboard.port, dashboard.token);
  }

  @Override
  public void validate() {
    super.validate();
    OptionChecks.requireRange(partitions, 1, Long.MAX_VALUE, "--partitions");
    OptionChecks.requireFreePort("127.0.0.1", kafkaPort, "--kafka-port");
    OptionChecks.requireFreePort("127.0.0.1", storePort, "--store-port");
    if (influxUrl != null) {
      OptionChecks.requireHttpUrl(influxUrl, "--influx-url");
    }
    InfluxToken.validate(influxOrg, influxBucket, influxTokenFile);
  }
}
