package io.netpulse.cli.topics;

import io.netpulse.common.Topics;
import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.cli.command.ClusterOptions;
import io.netpulse.launcher.KafkaCheck;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** {@code netpulse topics list}: netpulse's topics, their partitions and how many records they hold. */
@Command(name = "list", mixinStandardHelpOptions = true,
    description = {"netpulse's topics with their partitions and record counts.",
      "The topics are those under --topic-prefix; records are committed ones. A topic "
        + "of up to " + TopicCount.EXACT_UP_TO_OFFSETS + " offsets is read and its records counted exactly; a larger "
        + "one shows ~OFFSETS, its end minus start offsets, which on the topics the processor writes in transactions "
        + "also counts one commit marker per transaction and partition.",
      "Watch the dead letters grow with: watch netpulse topics list"},
    footer = {"", "Exit codes: 0 printed, 1 Kafka unreachable, 2 bad usage or refused credentials."})
public final class TopicsListCommand implements Callable<Integer> {

  @Mixin ClusterOptions kafkaOptions = new ClusterOptions();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    kafkaOptions.validate();
    KafkaConnection kafka = kafkaOptions.requireExternalKafka("topics list", "");
    KafkaCheck.requireAnswering(kafka);
    Topics topics = kafkaOptions.topics();
    List<String> missing = new ArrayList<>();
    TextTable table = new TextTable("TOPIC", "PARTITIONS", "RECORDS");
    try (PartitionReader reader = new PartitionReader(kafka)) {
      for (String topic : topics.all()) {
        TopicCount count = TopicCount.of(topic, reader);
        if (count == null) {
          missing.add(topic);
          table.row(topic, null, null);
        } else {
          table.row(topic, count.partitions(), count.recordsText() + (topics.isCompacted(topic) ? " (compacted)" : ""));
        }
      }
    }
    PrintWriter out = spec.commandLine().getOut();
    table.print(out);
    if (!missing.isEmpty()) {
      out.println();
      out.println("missing: " + String.join(", ", missing) + " ('netpulse processor' creates netpulse's topics when "
          + "it starts)");
    }
    out.flush();
    return 0;
  }
}
