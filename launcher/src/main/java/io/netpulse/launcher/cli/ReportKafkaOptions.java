package io.netpulse.launcher.cli;

import java.nio.file.Path;
import picocli.CommandLine.Option;

/**
 * Where {@code netpulse report} reads: an external Kafka, or else the data an embedded broker of an earlier run or
 * demo left under --data-dir (started for the report and stopped after).
 */
public final class ReportKafkaOptions extends KafkaOptions {

  @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT,...",
      defaultValue = "${env:NETPULSE_BOOTSTRAP_SERVERS}",
      description = "Kafka to read. Default: bootstrap.servers of --kafka-config, else the embedded broker's data "
          + "of an earlier run or demo under --data-dir (a broker is started on it for the report).")
  public String bootstrapServers;

  @Option(names = "--data-dir", paramLabel = "DIR", defaultValue = "${env:NETPULSE_DATA_DIR:-./.netpulse}",
      description = "The earlier run's data dir, read without --bootstrap-servers (default: ${DEFAULT-VALUE}).")
  public Path dataDir;

  @Option(names = "--kafka-port", defaultValue = "${env:NETPULSE_KAFKA_PORT:-0}",
      description = "Client port of that embedded broker on 127.0.0.1 (default: a free port).")
  public int kafkaPort;

  @Override
  protected String bootstrapServers() {
    return bootstrapServers;
  }

  @Override
  public void validate() {
    super.validate();
    OptionChecks.requirePort(kafkaPort, "--kafka-port");
  }
}
