package io.netpulse.cli.topics;

import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.cli.command.ClusterOptions;
import io.netpulse.launcher.KafkaCheck;
import io.netpulse.launcher.UserError;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.apache.kafka.clients.admin.Admin;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code netpulse topics lag}: how far netpulse's consumer groups are behind, per topic and partition. */
@Command(name = "lag", mixinStandardHelpOptions = true,
    description = {"How far netpulse's consumer groups are behind.",
      "Per topic and partition of each group: the committed offset, the end offset (read_committed: what the group "
        + "can read) and the lag between them; then each group's total lag, state and members.",
      "Healthy: lag near 0 and not growing. Growing lag of netpulse-processor: add instances or --stream-threads "
        + "(up to the partitions); of netpulse-store: InfluxDB is slow or down."},
    footer = {"", "Exit codes: 0 printed, 1 Kafka unreachable, 2 bad usage or refused credentials."})
public final class TopicsLagCommand implements Callable<Integer> {

  /** The processor's application id (its consumer group) and its store writer's group. */
  static final List<String> NETPULSE_GROUPS = List.of("netpulse-processor", "netpulse-store");

  @Mixin ClusterOptions kafkaOptions = new ClusterOptions();

  @Option(names = "--group", paramLabel = "GROUP",
      description = "Consumer group to show; repeat for more (default: netpulse-processor and netpulse-store; a "
          + "processor with another --application-id uses that as its group).")
  List<String> groups = new ArrayList<>();

  @Spec CommandSpec spec;

  @Override
  public Integer call() {
    kafkaOptions.validate();
    if (groups.stream().anyMatch(String::isBlank)) {
      throw new UserError("--group is empty: give a consumer group's name");
    }
    KafkaConnection kafka = kafkaOptions.requireExternalKafka("topics lag", "");
    KafkaCheck.requireAnswering(kafka);
    List<ConsumerLag> lags = new ArrayList<>();
    try (Admin admin = ClusterCalls.admin(kafka)) {
      for (String group : groups.isEmpty() ? NETPULSE_GROUPS : groups) {
        lags.add(ConsumerLag.read(admin, kafka, group));
      }
    }
    print(lags, spec.commandLine().getOut());
    return 0;
  }

  static void print(List<ConsumerLag> lags, PrintWriter out) {
    TextTable table = new TextTable("GROUP", "TOPIC", "PARTITION", "COMMITTED", "END", "LAG");
    for (ConsumerLag g : lags) {
      g.partitions().forEach(p -> table.row(g.group(), p.topic(), p.partition(), p.committedOffset(), p.endOffset(),
          p.lag()));
    }
    if (!table.isEmpty()) {
      table.print(out);
      out.println();
    }
    for (ConsumerLag g : lags) {
      if (g.partitions().isEmpty()) {
        out.println(g.group() + ": no committed offsets (" + g.state() + "; not started yet, or the group has another "
            + "name: --group)");
      } else {
        out.println(g.group() + ": lag " + g.totalLag() + " over " + g.partitions().size() + " partition(s); "
            + g.state() + ", " + g.members() + " member(s)");
      }
    }
    out.flush();
  }
}
