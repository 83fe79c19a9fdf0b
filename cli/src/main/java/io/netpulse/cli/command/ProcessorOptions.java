package io.netpulse.cli.command;

import io.netpulse.cli.options.OptionChecks;
import io.netpulse.testbed.embedded.LocalResources;
import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where {@code netpulse processor} works: an external Kafka (required), its stream state, and optionally the
 * InfluxDB its store writer copies rates and results to. It starts no broker and no store of its own.
 */
public final class ProcessorOptions extends ClusterOptions {

  @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "${env:NETPULSE_DATA_DIR:-./.netpulse}",
      description = "Where the processor keeps its Kafka Streams state (DIR/streams; rebuilt from Kafka's changelog "
          + "topics when missing) (default: ${DEFAULT-VALUE}).")
  public Path dataDir;

  @Option(names = "--partitions", paramLabel = "N", defaultValue = "${env:NETPULSE_PARTITIONS:-3}",
      description = "Partitions of the topics the processor creates when they are missing (default: "
          + "${DEFAULT-VALUE}).")
  public int partitions;

  @Option(names = "--influx-url", paramLabel = "URL", defaultValue = "${env:NETPULSE_INFLUX_URL}",
      description = "InfluxDB 2 (or anything taking its v2 write API) to copy rates and results to. Default: none, "
          + "this processor writes no store.")
  public String influxUrl;

  @Option(names = "--influx-org", paramLabel = "ORG", defaultValue = "${env:NETPULSE_INFLUX_ORG:-netpulse}",
      description = "InfluxDB organisation, with --influx-url (default: ${DEFAULT-VALUE}).")
  public String influxOrg;

  @Option(names = "--influx-bucket", paramLabel = "BUCKET", defaultValue = "${env:NETPULSE_INFLUX_BUCKET:-netpulse}",
      description = "InfluxDB bucket, with --influx-url (default: ${DEFAULT-VALUE}).")
  public String influxBucket;

  @Option(names = "--influx-token-file", paramLabel = "FILE", defaultValue = "${env:NETPULSE_INFLUX_TOKEN_FILE}",
      description = "File holding the InfluxDB token, with --influx-url (or set NETPULSE_INFLUX_TOKEN). Never logged.")
  public Path influxTokenFile;

  public char[] influxToken() {
    return InfluxToken.read(influxTokenFile);
  }

  /** The checks that touch nothing; the data dir's is {@link #requireWritableDataDir()}, as it creates the dir. */
  @Override
  public void validate() {
    super.validate();
    requireExternalKafka("processor", "");
    OptionChecks.requireRange(partitions, 1, Long.MAX_VALUE, "--partitions");
    if (influxUrl != null) {
      OptionChecks.requireHttpUrl(influxUrl, "--influx-url");
      InfluxToken.validate(influxOrg, influxBucket, influxTokenFile);
    }
  }

  public void requireWritableDataDir() {
    LocalResources.requireWritableDir(dataDir.toAbsolutePath().normalize());
  }
}
