package io.netpulse.cli.topics;

import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.cli.command.ClusterOptions;
import io.netpulse.cli.command.ShutdownHooks;
import io.netpulse.launcher.KafkaCheck;
import io.netpulse.launcher.UserError;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code netpulse topics tail TOPIC}: a topic's last records, all of them, or the new ones as they come. */
@Command(name = "tail", mixinStandardHelpOptions = true,
    description = {"A topic's records as JSON lines: the last N, all of them, or (--follow) new ones as they arrive.",
      "Each line has topic, partition, offset, timestamp (epoch "
        + "ms), key, and value (JSON when it is JSON, else text). Reads as netpulse does (read_committed) and joins "
        + "no consumer group, so it disturbs nothing.",
      "Without --follow it stops at the end the topic had when it started. Example: netpulse topics tail dlq -n 5 "
        + "shows the last five dead letters with their 'error'."},
    footer = {"", "Exit codes: 0 done, 1 Kafka unreachable, 2 bad usage, no such topic or refused credentials. With "
        + "--follow it runs until stopped (Ctrl-C, SIGTERM)."})
public final class TopicsTailCommand implements Callable<Integer> {

  static final int DEFAULT_LAST = 10;

  @Mixin ClusterOptions kafkaOptions = new ClusterOptions();

  @Parameters(index = "0", paramLabel = "TOPIC",
      description = "The topic: a full name, or one of netpulse's short names (lines, tool-output, runs, samples, "
          + "rates, steady, results, dlq) under --topic-prefix.")
  String topic;

  @Option(names = "--from-beginning", description = "Print every record the topic holds instead of the last ones.")
  boolean fromBeginning;

  @Option(names = {"-n", "--last"}, paramLabel = "N",
      description = "Print the last N records (default: " + DEFAULT_LAST + "; by timestamp across partitions).")
  Integer last;

  @Option(names = {"-f", "--follow"}, description = "Then keep printing records as they arrive, until Ctrl-C.")
  boolean follow;

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    kafkaOptions.validate();
    if (fromBeginning && last != null) {
      throw new UserError("topics tail: give --from-beginning or -n N, not both");
    }
    if (last != null && last < 0) {
      throw new UserError("topics tail: -n must be ≥ 0, got " + last);
    }
    KafkaConnection kafka = kafkaOptions.requireExternalKafka("topics tail", "");
    KafkaCheck.requireAnswering(kafka);
    PrintWriter out = spec.commandLine().getOut();
    String name = fullName(topic);
    try (PartitionReader reader = new PartitionReader(kafka)) {
      List<TopicPartition> partitions = reader.partitions(name);
      if (partitions.isEmpty()) {
        throw new UserError("no topic " + name + " on Kafka at " + kafka.bootstrapServers() + " (netpulse's are "
            + String.join(", ", kafkaOptions.topics().all()) + "; see 'netpulse topics list')");
      }
      Map<TopicPartition, Long> begins = reader.beginnings(partitions);
      Map<TopicPartition, Long> ends = reader.ends(partitions);
      if (fromBeginning) {
        reader.read(begins, ends, r -> out.println(RecordJson.of(r)));
      } else {
        printLast(reader, begins, ends, last == null ? DEFAULT_LAST : last, out);
      }
      out.flush();
      if (follow) {
        followUntilStopped(reader, out);
      }
    }
    return 0;
  }

  /** A short name of netpulse's topics gets the prefix; anything else is taken as the topic's full name. */
  private String fullName(String given) {
    var topics = kafkaOptions.topics();
    return topics.all().stream().filter(t -> t.equals(topics.prefix() + given)).findFirst().orElse(given);
  }

  /**
   * The last N by timestamp. Each partition is read from 2N offsets before its end: on a topic written in transactions
   * every commit marker takes an offset too, and N records then span up to 2N offsets.
   */
  private static void printLast(PartitionReader reader, Map<TopicPartition, Long> begins,
      Map<TopicPartition, Long> ends, int n, PrintWriter out) {
    Map<TopicPartition, Long> starts = new HashMap<>();
    ends.forEach((tp, end) -> starts.put(tp, Math.max(begins.get(tp), end - 2L * n)));
    List<ConsumerRecord<byte[], byte[]>> read = new ArrayList<>();
    reader.read(starts, ends, read::add);
    read.stream()
        .sorted(Comparator.<ConsumerRecord<byte[], byte[]>>comparingLong(ConsumerRecord::timestamp)
            .thenComparingInt(ConsumerRecord::partition).thenComparingLong(ConsumerRecord::offset))
        .skip(Math.max(0, read.size() - n))
        .forEach(r -> out.println(RecordJson.of(r)));
  }

  /** Prints new records until SIGINT/SIGTERM, whose hook wakes the reader and waits for it to close. */
  private static void followUntilStopped(PartitionReader reader, PrintWriter out) {
    CountDownLatch closed = new CountDownLatch(1);
    Thread hook = new Thread(() -> {
      reader.wakeup();
      try {
        closed.await(5, TimeUnit.SECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }, "netpulse-topics-tail-stop");
    Runtime.getRuntime().addShutdownHook(hook);
    try {
      reader.follow(r -> out.println(RecordJson.of(r)), out::flush);
    } finally {
      out.flush();
      closed.countDown();
      ShutdownHooks.remove(hook); // a running hook has woken the reader and waits for closed, counted down above
    }
  }
}
