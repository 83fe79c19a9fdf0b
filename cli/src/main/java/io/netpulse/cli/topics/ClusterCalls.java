package io.netpulse.cli.topics;

import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.launcher.KafkaCheck;
import io.netpulse.launcher.UserError;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * The topics commands' clients and their failures: a call that fails is one line naming the cluster and what to check
 * (exit 1), or the refusal of the credentials (exit 2), never a stack trace.
 */
final class ClusterCalls {

  static final int CALL_TIMEOUT_MS = 30_000;

  private ClusterCalls() {}

  static Admin admin(KafkaConnection kafka) {
    Properties p = kafka.clientProperties(Map.of(
        AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 10_000,
        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, CALL_TIMEOUT_MS));
    return Admin.create(p);
  }

  /** A consumer of no group (it assigns and seeks), reading committed records only, as netpulse's readers do. */
  static KafkaConsumer<byte[], byte[]> consumer(KafkaConnection kafka) {
    Properties p = kafka.clientProperties(Map.of(
        ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
        ConsumerConfig.CLIENT_ID_CONFIG, "netpulse-topics-" + ProcessHandle.current().pid()));
    return new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
  }

  /** The future's value, or a one-line error saying what could not be done where. */
  static <T> T await(KafkaFuture<T> future, KafkaConnection kafka, String what) {
    return awaitUnless(null, future, kafka, what);
  }

  /** As {@link #await}, but null when the call fails with {@code absent} (e.g. no such group). */
  static <T> T awaitUnless(Class<? extends Exception> absent, KafkaFuture<T> future, KafkaConnection kafka,
      String what) {
    try {
      return future.get(CALL_TIMEOUT_MS + 5_000L, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("interrupted while trying to " + what, 1);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      if (absent != null && absent.isInstance(cause)) {
        return null;
      }
      throw failed(kafka, what, cause);
    } catch (TimeoutException e) {
      throw failed(kafka, what, e);
    }
  }

  static UserError failed(KafkaConnection kafka, String what, Throwable cause) {
    UserError refused = KafkaCheck.refusal(kafka, cause);
    if (refused != null) {
      return refused;
    }
    String why = cause instanceof TimeoutException || cause instanceof org.apache.kafka.common.errors.TimeoutException
        ? "no answer within " + CALL_TIMEOUT_MS / 1000 + " s"
        : cause.getMessage() != null ? cause.getMessage() : cause.getClass().getSimpleName();
    return new UserError("cannot " + what + " on Kafka at " + kafka.bootstrapServers() + ": " + why
        + "; check --bootstrap-servers (NETPULSE_BOOTSTRAP_SERVERS) and that Kafka is up", 1);
  }
}
