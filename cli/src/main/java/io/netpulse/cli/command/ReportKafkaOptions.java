package io.netpulse.cli.command;

import io.netpulse.cli.options.OptionChecks;
import io.netpulse.launcher.UserError;

import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testbed.embedded.EmbeddedStartException;
import io.netpulse.common.kafka.KafkaConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
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

  @Option(names = "--kafka-port", paramLabel = "PORT", defaultValue = "${env:NETPULSE_KAFKA_PORT:-0}",
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

  /**
   * Runs {@code read} against the external Kafka, or else against a broker started on the embedded data of an
   * earlier run under --data-dir (stopped after).
   */
  public <T> T withKafka(String command, Function<KafkaConnection, T> read) {
    Optional<KafkaConnection> external = externalKafka();
    if (external.isPresent()) {
      return read.apply(external.get());
    }
    try (EmbeddedKafka kafka = embeddedKafka(command)) {
      return read.apply(kafka.connection());
    }
  }

  /** The data of an earlier run with the embedded broker stays under --data-dir: read it there. */
  private EmbeddedKafka embeddedKafka(String command) {
    Path logs = dataDir.resolve("kafka");
    if (!Files.isDirectory(logs)) {
      throw new UserError("no --bootstrap-servers given and no embedded Kafka data in " + logs
          + " (give --bootstrap-servers, or the --data-dir of the run)");
    }
    try {
      return EmbeddedKafka.start(dataDir, kafkaPort);
    } catch (EmbeddedStartException e) {
      // most often a running 'netpulse run' or demo holds the data dir: read through its broker instead
      throw new UserError(e.getMessage() + " (if a netpulse run or demo is using " + dataDir
          + ", give --bootstrap-servers with the broker address it printed" + (command == null ? "" : " to " + command)
          + ")");
    }
  }
}
