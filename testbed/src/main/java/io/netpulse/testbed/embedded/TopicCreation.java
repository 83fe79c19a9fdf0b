package io.netpulse.testbed.embedded;

import io.netpulse.common.Topics;
import io.netpulse.common.kafka.KafkaConnection;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.RetriableException;
import org.apache.kafka.common.config.TopicConfig;

/**
 * Creates netpulse's topics on any cluster and returns only once every partition it created can take writes.
 *
 * <p>Why the wait: a topic's creation is acknowledged when the controller has committed it, before the partition's
 * leader has opened its log. An idempotent producer that writes at once can then lose its first batch: the request
 * carrying it is refused with NOT_LEADER_OR_FOLLOWER, a later request of the same producer arrives after the log is
 * open and is appended (a partition with no producer state accepts any first sequence), and every retry of the first
 * batch is then refused as out of order until delivery.timeout.ms drops it (KAFKA-15591; Kafka 4.4's broker still
 * does this). Caught here in CI: a test fixture that wrote right after creating its topics lost a partition's first
 * 74 records, and 2 of 40 create-then-write rounds on a loaded machine lost theirs. ListOffsets is served only by a
 * partition's leader with its log open, the state a write needs, and writes nothing.
 */
public final class TopicCreation {

  private static final long RETRY_NS = TimeUnit.MILLISECONDS.toNanos(100);

  private TopicCreation() {
  }

  /** The connection's {@code default.api.timeout.ms} when its settings have one, else {@code otherwise}. */
  static int apiTimeoutMs(KafkaConnection kafka, int otherwise) {
    String set = kafka.clientProperties().getProperty(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG);
    if (set == null) {
      return otherwise;
    }
    try {
      return Math.max(1, Integer.parseInt(set.strip()));
    } catch (NumberFormatException e) {
      return otherwise; // the admin client itself refuses it, with the key's name
    }
  }

  /** Creates missing netpulse topics (docs/topics.md); replication ≤ 0 means the broker's default. */
  public static void create(KafkaConnection kafka, Topics topics, int partitions, short replication) {
    // the calls' own timeouts, not only get()'s: Admin.close() waits for pending calls, so a call left to its
    // 60 s default.api.timeout.ms would double the wait on an unreachable cluster; 30 s unless the connection's
    // settings (--kafka-config) say how long its calls may take
    int timeoutMs = apiTimeoutMs(kafka, 30_000);
    try (Admin admin = Admin.create(kafka.clientProperties())) {
      Set<String> existing = admin.listTopics(new ListTopicsOptions().timeoutMs(timeoutMs)).names()
          .get(timeoutMs + 1_000, TimeUnit.MILLISECONDS);
      List<NewTopic> missing = new ArrayList<>();
      for (String name : topics.all()) {
        if (existing.contains(name)) {
          continue;
        }
        NewTopic topic = new NewTopic(name, Optional.of(partitions),
            replication > 0 ? Optional.of(replication) : Optional.empty());
        if (topics.isCompacted(name)) {
          topic.configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT));
        }
        missing.add(topic);
      }
      if (!missing.isEmpty()) {
        admin.createTopics(missing, new CreateTopicsOptions().timeoutMs(timeoutMs)).all()
            .get(timeoutMs + 1_000, TimeUnit.MILLISECONDS);
        awaitWritable(admin, missing.stream().map(NewTopic::name).toList(), partitions, timeoutMs);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while creating topics", e);
    } catch (ExecutionException | TimeoutException e) {
      throw new IllegalStateException(
          "cannot create topics on " + kafka.bootstrapServers() + ": " + EmbeddedKafka.rootMessage(e), e);
    }
  }

  /**
   * Waits until every partition of {@code names} has a leader with its log open. The admin client retries ListOffsets
   * on NOT_LEADER_OR_FOLLOWER, but fails at once on a topic its metadata does not have yet (the same race, one step
   * earlier): any retriable error is tried again until {@code timeoutMs}.
   */
  static void awaitWritable(Admin admin, List<String> names, int partitions, int timeoutMs)
      throws InterruptedException {
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    for (String name : names) {
      for (int p = 0; p < partitions; p++) {
        latest.put(new TopicPartition(name, p), OffsetSpec.latest());
      }
    }
    long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
    while (true) {
      long leftMs = Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime()));
      Throwable failure;
      try {
        admin.listOffsets(latest, new ListOffsetsOptions().timeoutMs((int) leftMs)).all()
            .get(leftMs + 1_000, TimeUnit.MILLISECONDS);
        return;
      } catch (ExecutionException e) {
        failure = e.getCause();
      } catch (TimeoutException e) {
        failure = e;
      }
      if (!(failure instanceof RetriableException) || System.nanoTime() + RETRY_NS >= deadline) {
        throw new IllegalStateException("created topics " + names + " but their partitions did not become writable"
            + " within " + timeoutMs + " ms: " + EmbeddedKafka.rootMessage(failure), failure);
      }
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(RETRY_NS));
    }
  }
}
