package io.netpulse.launcher.services;

import io.netpulse.testbed.embedded.EmbeddedKafka;
import java.nio.file.Path;

/**
 * The project's embedded Kafka (KRaft) as a broker process of its own: {@code BrokerChild DATA_DIR PORT}. Prints
 * {@code READY host:port} once clients can connect and runs until stopped; SIGTERM shuts the broker down cleanly, and a
 * new one on the same data dir keeps the topics and their records.
 */
public final class BrokerChild {

  private BrokerChild() {}

  public static void main(String[] args) throws InterruptedException {
    EmbeddedKafka kafka = EmbeddedKafka.start(Path.of(args[0]), Integer.parseInt(args[1]));
    ChildServices.readyUntilStopped(kafka.bootstrapServers(), kafka::close, "broker-child-stop");
  }
}
