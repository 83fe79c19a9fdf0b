package io.netpulse.cli.command;

import io.netpulse.launcher.UserError;

import io.netpulse.common.kafka.KafkaConnection;
import picocli.CommandLine.Option;

/** An external Kafka cluster that a command cannot run without (processor, dashboard, collector, topics). */
public class ClusterOptions extends KafkaOptions {

  @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT,...",
      defaultValue = "${env:NETPULSE_BOOTSTRAP_SERVERS}",
      description = "Kafka cluster to use; required, here or as bootstrap.servers in --kafka-config: this command "
          + "starts no broker of its own.")
  public String bootstrapServers;

  @Override
  protected String bootstrapServers() {
    return bootstrapServers;
  }

  /**
   * The cluster, or a one-line error saying how to name one.
   *
   * @param purpose appended to the message, e.g. ": the Kafka cluster to send lines to"; may be empty
   */
  public KafkaConnection requireExternalKafka(String command, String purpose) {
    return externalKafka().orElseThrow(() -> new UserError(command + " needs --bootstrap-servers (or "
        + "NETPULSE_BOOTSTRAP_SERVERS, or bootstrap.servers in --kafka-config)" + purpose
        + "; 'netpulse demo' runs everything embedded"));
  }
}
