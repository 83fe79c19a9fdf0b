package io.netpulse.cli.command;

import io.netpulse.launcher.UserError;
import io.netpulse.launcher.KafkaCheck;

import io.netpulse.common.kafka.KafkaConnection;
import java.nio.file.Path;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Looks once, beside a starting collector, whether its Kafka answers and has the lines topic. The producer cannot tell
 * the two apart (both are "not present in metadata" to it), and an operator must know which to fix: the collector
 * keeps running and spooling either way, so this only warns, and runs on its own thread so that sampling starts at
 * once.
 */
final class CollectorKafkaProbe {

  private static final Logger LOG = LoggerFactory.getLogger(CollectorKafkaProbe.class);
  private static final int WAIT_SECONDS = 10;

  private CollectorKafkaProbe() {}

  static void startInBackground(KafkaConnection kafka, String linesTopic, Path spoolDir) {
    Thread t = new Thread(() -> warnIfUnusable(kafka, linesTopic, spoolDir), "netpulse-collector-kafka-probe");
    t.setDaemon(true);
    t.start();
  }

  /** The warning for what was found, or null when lines can be sent. */
  static String check(KafkaConnection kafka, String linesTopic, Path spoolDir) {
    Properties p = kafka.clientProperties();
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, WAIT_SECONDS * 1000);
    String waiting = "lines wait in memory, then in the spool " + spoolDir + ", and are sent once it ";
    try (Admin admin = Admin.create(p)) {
      Set<String> names = admin.listTopics(new ListTopicsOptions().timeoutMs(WAIT_SECONDS * 1000)).names()
          .get(WAIT_SECONDS + 1, TimeUnit.SECONDS);
      if (names.contains(linesTopic)) {
        return null;
      }
      return "Kafka at " + kafka.bootstrapServers() + " has no topic " + linesTopic + "; " + waiting + "exists: "
          + "start 'netpulse processor' (it creates netpulse's topics) or create them (docs/topics.md), or check "
          + "--topic-prefix";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (ExecutionException | TimeoutException | KafkaException e) {
      UserError refused = KafkaCheck.refusal(kafka, e);
      if (refused != null) {
        return refused.getMessage();
      }
      return "Kafka at " + kafka.bootstrapServers() + " does not answer within " + WAIT_SECONDS + " s; " + waiting
          + "does: check --bootstrap-servers (NETPULSE_BOOTSTRAP_SERVERS) and that Kafka is up";
    }
  }

  private static void warnIfUnusable(KafkaConnection kafka, String linesTopic, Path spoolDir) {
    String warning = check(kafka, linesTopic, spoolDir);
    if (warning != null) {
      LOG.warn(warning);
    }
  }
}
