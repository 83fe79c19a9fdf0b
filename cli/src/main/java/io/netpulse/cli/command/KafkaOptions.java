package io.netpulse.cli.command;

import io.netpulse.cli.options.OptionChecks;
import io.netpulse.launcher.UserError;

import io.netpulse.common.Topics;
import io.netpulse.common.kafka.KafkaClientSettingsFile;
import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.common.kafka.KafkaSettingsException;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * How a command reaches Kafka: the client settings file and the topic prefix. Subclasses declare
 * {@code --bootstrap-servers}, because whether it is required or what its default is differs per command, and the
 * help says which.
 */
public abstract class KafkaOptions {

  @Option(names = "--kafka-config", paramLabel = "FILE", defaultValue = "${env:NETPULSE_KAFKA_CONFIG}",
      description = "Kafka client settings for an external Kafka (security.protocol, sasl.*, ssl.*, ...): a "
          + "properties file as Kafka's own tools take with --command-config. Its bootstrap.servers is used when "
          + "--bootstrap-servers is not given. Values are never logged.")
  public Path kafkaConfig;

  @Option(names = "--topic-prefix", paramLabel = "PREFIX", defaultValue = "${env:NETPULSE_TOPIC_PREFIX:-netpulse.}",
      description = "Prefix of every topic (default: ${DEFAULT-VALUE}).")
  public String topicPrefix;

  /** The {@code --bootstrap-servers} value, null when not given. */
  protected abstract String bootstrapServers();

  /**
   * The external Kafka named by --bootstrap-servers and/or --kafka-config; empty when neither names one.
   *
   * @throws UserError when the settings file is unreadable or refused, or the servers are not HOST:PORT,...
   */
  public Optional<KafkaConnection> externalKafka() {
    Optional<KafkaConnection> kafka;
    try {
      kafka = KafkaClientSettingsFile.resolve(bootstrapServers(), kafkaConfig);
    } catch (KafkaSettingsException e) {
      throw new UserError(e.getMessage());
    }
    boolean fromFlag = bootstrapServers() != null && !bootstrapServers().isBlank();
    String source = fromFlag ? OptionChecks.named("--bootstrap-servers")
        : "bootstrap.servers in --kafka-config " + kafkaConfig;
    kafka.ifPresent(k -> OptionChecks.requireServers(k.bootstrapServers(), source));
    return kafka;
  }

  public Topics topics() {
    return new Topics(topicPrefix);
  }

  /** Checks what can be checked without a network: the file, the servers' form, the prefix. */
  public void validate() {
    Topics named = topics();
    OptionChecks.requireTopicPrefix(topicPrefix,
        named.all().stream().mapToInt(t -> t.length() - named.prefix().length()).max().orElse(0));
    externalKafka(); // reads and checks the --kafka-config file, if any
  }
}
