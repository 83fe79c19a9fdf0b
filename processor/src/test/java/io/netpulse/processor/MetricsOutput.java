package io.netpulse.processor;

import io.netpulse.common.event.Sample;
import io.netpulse.common.event.WideSample;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.NoSuchElementException;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;

/**
 * A TopologyTestDriver's {@code metrics} topic, read once and served two ways: its rows ({@link #rows()}) and the
 * samples they hold ({@link #samples()}, each row expanded with {@link WideSample#samples()}: one per value, keyed and
 * timed as its row). Two TestOutputTopics on one topic take each other's records; here each view has a cursor of its
 * own, as two consumer groups would: reading one leaves the other's records unread.
 */
public final class MetricsOutput {

  private final String topicName;
  private final TestOutputTopic<String, WideSample> topic;
  private final View<WideSample> rows = new View<>();
  private final View<Sample> samples = new View<>();

  public MetricsOutput(TopologyTestDriver driver, String topic) {
    this.topicName = topic;
    this.topic = TestDrivers.jsonOutput(driver, topic, WideSample.class);
  }

  /** The rows as written to {@code metrics}. */
  public View<WideSample> rows() {
    return rows;
  }

  /** The samples of the rows, in row order. */
  public View<Sample> samples() {
    return samples;
  }

  /** Moves whatever the topology wrote since the last read to both views. */
  private void pull() {
    for (TestRecord<String, WideSample> row : topic.readRecordsToList()) {
      rows.queue.add(row);
      for (Sample s : row.value().samples()) {
        samples.queue.add(new TestRecord<>(row.key(), s, row.headers(), row.getRecordTime()));
      }
    }
  }

  /** One way of reading the topic: the subset of TestOutputTopic the tests use. */
  public final class View<V> {

    private final Deque<TestRecord<String, V>> queue = new ArrayDeque<>();

    private View() {}

    public boolean isEmpty() {
      pull();
      return queue.isEmpty();
    }

    public long getQueueSize() {
      pull();
      return queue.size();
    }

    public TestRecord<String, V> readRecord() {
      pull();
      TestRecord<String, V> next = queue.poll();
      if (next == null) {
        throw new NoSuchElementException("Empty topic: " + topicName);
      }
      return next;
    }

    public V readValue() {
      return readRecord().value();
    }

    public List<TestRecord<String, V>> readRecordsToList() {
      pull();
      List<TestRecord<String, V>> out = new ArrayList<>(queue);
      queue.clear();
      return out;
    }

    public List<V> readValuesToList() {
      return readRecordsToList().stream().map(TestRecord::value).toList();
    }
  }
}
