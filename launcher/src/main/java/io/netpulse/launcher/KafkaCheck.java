package io.netpulse.launcher;

import io.netpulse.common.kafka.KafkaConnection;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.AuthenticationException;
import org.apache.kafka.common.errors.AuthorizationException;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;

/**
 * Asks an external Kafka for its nodes before netpulse starts its clients, so that an unreachable cluster or refused
 * credentials come out as one line naming the settings to check (never their values) instead of clients retrying.
 */
public final class KafkaCheck {

  private static final int WAIT_SECONDS = 10;

  private KafkaCheck() {}

  /** Fails when Kafka does not answer within 10 s or refuses the credentials. */
  public static void requireReachable(KafkaConnection kafka) {
    requireAnswer(kafka, () -> new UserError("cannot reach Kafka at " + kafka.bootstrapServers() + " within "
        + WAIT_SECONDS + " s; check --bootstrap-servers (or leave it out to use the embedded broker)"
        + (kafka.settingsFile() == null ? "" : " and security.protocol in " + kafka.settingsFile())));
  }

  /**
   * For commands that only talk to a cluster (the topics commands): one line naming the cluster and what to check,
   * exit 1, when it does not answer within 10 s; exit 2 when it refuses the credentials.
   */
  public static void requireAnswering(KafkaConnection kafka) {
    requireAnswer(kafka, () -> new UserError("cannot reach Kafka at " + kafka.bootstrapServers() + " within "
        + WAIT_SECONDS + " s; check --bootstrap-servers (NETPULSE_BOOTSTRAP_SERVERS) and that Kafka is up"
        + (kafka.settingsFile() == null ? "" : ", and security.protocol in " + kafka.settingsFile()), 1));
  }

  /**
   * Refused credentials are the refusal's own error, whatever the command: only the error for a cluster that does not
   * answer ({@code unreachable}) says what that command's user should check.
   */
  private static void requireAnswer(KafkaConnection kafka, Supplier<UserError> unreachable) {
    Throwable failure = describeCluster(kafka);
    if (failure != null) {
      UserError refused = refusal(kafka, failure);
      throw refused != null ? refused : unreachable.get();
    }
  }

  /**
   * Fails only when Kafka answers and refuses the credentials: a collector must start while Kafka is away (it
   * spools), but wrong credentials would never heal.
   */
  public static void requireNotRefused(KafkaConnection kafka) {
    Throwable failure = describeCluster(kafka);
    UserError refused = failure == null ? null : refusal(kafka, failure);
    if (refused != null) {
      throw refused;
    }
  }

  /** The one-line error for a failure that is Kafka refusing netpulse's credentials or access, else null. */
  public static UserError refusal(KafkaConnection kafka, Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
      String at = "Kafka at " + kafka.bootstrapServers();
      if (t instanceof SslAuthenticationException) {
        return new UserError("TLS handshake with " + at + " failed (check the ssl.* settings in "
            + kafka.settingsSource() + "): " + t.getMessage());
      }
      if (t instanceof SaslAuthenticationException) {
        return new UserError(at + " refused authentication (check sasl.jaas.config in " + kafka.settingsSource()
            + "): " + t.getMessage());
      }
      if (t instanceof AuthenticationException) {
        return new UserError(at + " refused authentication (check security.protocol and sasl.mechanism in "
            + kafka.settingsSource() + "): " + t.getMessage());
      }
      if (t instanceof AuthorizationException) {
        return new UserError(at + " refused access to the user of " + kafka.settingsSource()
            + " (it needs ACLs for netpulse's topics and groups): " + t.getMessage());
      }
    }
    return null;
  }

  /** Null when the cluster answered. */
  private static Throwable describeCluster(KafkaConnection kafka) {
    Properties p = kafka.clientProperties();
    // this check's own patience, whatever timeouts the file gives netpulse's long-lived clients
    p.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 5000);
    p.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, WAIT_SECONDS * 1000);
    try (Admin admin = Admin.create(p)) {
      admin.describeCluster().nodes().get(WAIT_SECONDS, TimeUnit.SECONDS);
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("interrupted while connecting to Kafka", 1);
    } catch (ExecutionException e) {
      return e.getCause() == null ? e : e.getCause();
    } catch (TimeoutException | KafkaException e) {
      return e;
    }
  }
}
