package io.netpulse.cli.stack;

import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.launcher.KafkaCheck;
import io.netpulse.launcher.UserError;
import io.netpulse.processor.ProcessorApp;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * The processor's consumer group as Kafka describes it: {@code run --attach} uses a processor that is already running
 * and must not start one of its own, so it first asks whether the group has members, because a plan run without one
 * would only time out waiting for results.
 */
public final class ProcessorGroup {

  private static final int WAIT_SECONDS = 10;

  private ProcessorGroup() {}

  /** The members of {@code group} now (Kafka Streams: one per stream thread); none when the group is unknown. */
  public static int activeMembers(KafkaConnection kafka, String group) {
    Properties p = kafka.clientProperties();
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, WAIT_SECONDS * 1000);
    try (Admin admin = Admin.create(p)) {
      ConsumerGroupDescription d = admin.describeConsumerGroups(List.of(group)).describedGroups().get(group)
          .get(WAIT_SECONDS, TimeUnit.SECONDS);
      return d.members().size();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("interrupted while asking Kafka for the processor's group", 1);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof GroupIdNotFoundException) {
        return 0; // never started against this Kafka
      }
      UserError refused = KafkaCheck.refusal(kafka, e.getCause());
      throw refused != null ? refused : new UserError("cannot describe consumer group " + group + " at Kafka "
          + kafka.bootstrapServers() + ": " + e.getCause().getMessage(), 1);
    } catch (TimeoutException | KafkaException e) {
      throw new UserError("cannot describe consumer group " + group + " at Kafka " + kafka.bootstrapServers()
          + " within " + WAIT_SECONDS + " s", 1);
    }
  }

  /**
   * The members of the processor's group ({@link ProcessorApp#DEFAULT_APPLICATION_ID}).
   *
   * @throws UserError (exit 1) naming the Kafka, the group and how to start a processor, when it has none
   */
  public static int requireActive(KafkaConnection kafka) {
    String group = ProcessorApp.DEFAULT_APPLICATION_ID;
    int members = activeMembers(kafka, group);
    if (members == 0) {
      throw new UserError("--attach: no processor is running against Kafka at " + kafka.bootstrapServers()
          + " (consumer group " + group + " has no active members); start one with 'netpulse processor "
          + "--bootstrap-servers " + kafka.bootstrapServers() + "' or 'docker compose up -d', or leave out --attach "
          + "to run the whole pipeline in this command", 1);
    }
    return members;
  }
}
