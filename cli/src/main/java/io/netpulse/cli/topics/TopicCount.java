package io.netpulse.cli.topics;

import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * How many records a topic holds. The offsets between start and (read_committed) end count the records exactly only
 * where nothing else takes an offset: on the topics the processor writes in transactions, every commit also puts a
 * marker in each partition it wrote. So a topic whose offsets are few is read and its records counted; for a larger
 * one the offsets are the estimate.
 */
record TopicCount(String topic, int partitions, long offsets, Long records) {

  /** Topics spanning at most this many offsets are read to count their records. */
  static final long EXACT_UP_TO_OFFSETS = 10_000;

  static TopicCount of(String topic, PartitionReader reader) {
    List<TopicPartition> partitions = reader.partitions(topic);
    if (partitions.isEmpty()) {
      return null;
    }
    Map<TopicPartition, Long> begins = reader.beginnings(partitions);
    Map<TopicPartition, Long> ends = reader.ends(partitions);
    long offsets = partitions.stream().mapToLong(tp -> Math.max(0, ends.get(tp) - begins.get(tp))).sum();
    if (offsets > EXACT_UP_TO_OFFSETS) {
      return new TopicCount(topic, partitions.size(), offsets, null);
    }
    long[] records = {0};
    reader.read(begins, ends, r -> records[0]++);
    return new TopicCount(topic, partitions.size(), offsets, records[0]);
  }

  /** The exact count, or the offsets marked as an estimate ("~"). */
  String recordsText() {
    return records != null ? Long.toString(records) : "~" + offsets;
  }
}
