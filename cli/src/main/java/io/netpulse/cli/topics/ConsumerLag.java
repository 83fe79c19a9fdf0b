package io.netpulse.cli.topics;

import io.netpulse.common.kafka.KafkaConnection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ConsumerGroupDescription;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.ListOffsetsResult.ListOffsetsResultInfo;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.GroupIdNotFoundException;

/**
 * A consumer group's committed offsets against the partitions' ends. The ends are read_committed (last stable)
 * offsets: netpulse's readers see only committed records, so a caught-up group has lag 0 even while a transaction is
 * open.
 */
record ConsumerLag(String group, String state, int members, List<PartitionLag> partitions) {

  /** One partition; committedOffset null when the group has committed nothing there. */
  record PartitionLag(String topic, int partition, Long committedOffset, long endOffset) {

    Long lag() {
      return committedOffset == null ? null : Math.max(0, endOffset - committedOffset);
    }
  }

  long totalLag() {
    return partitions.stream().map(PartitionLag::lag).filter(l -> l != null).mapToLong(Long::longValue).sum();
  }

  static ConsumerLag read(Admin admin, KafkaConnection kafka, String group) {
    Map<String, ConsumerGroupDescription> described = ClusterCalls.awaitUnless(GroupIdNotFoundException.class,
        admin.describeConsumerGroups(List.of(group)).all(), kafka, "describe group " + group);
    if (described == null) {
      return new ConsumerLag(group, "no such group", 0, List.of());
    }
    ConsumerGroupDescription d = described.get(group);
    Map<TopicPartition, OffsetAndMetadata> committed = ClusterCalls.await(
        admin.listConsumerGroupOffsets(group).partitionsToOffsetAndMetadata(), kafka,
        "read the committed offsets of group " + group);
    // as Kafka's own tool: the partitions a member holds are shown even before the group commits there
    Set<TopicPartition> partitions = new HashSet<>(committed.keySet());
    if (d != null) {
      d.members().forEach(m -> partitions.addAll(m.assignment().topicPartitions()));
    }
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    partitions.forEach(tp -> latest.put(tp, OffsetSpec.latest()));
    Map<TopicPartition, ListOffsetsResultInfo> ends = latest.isEmpty() ? Map.of() : ClusterCalls.await(
        admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all(), kafka,
        "read the end offsets of group " + group + "'s partitions");
    List<PartitionLag> rows = partitions.stream()
        .map(tp -> new PartitionLag(tp.topic(), tp.partition(),
            committed.get(tp) == null ? null : committed.get(tp).offset(), ends.get(tp).offset()))
        .sorted(Comparator.comparing(PartitionLag::topic).thenComparingInt(PartitionLag::partition))
        .toList();
    return new ConsumerLag(group, d == null ? "unknown" : d.groupState().toString(),
        d == null ? 0 : d.members().size(), rows);
  }
}
