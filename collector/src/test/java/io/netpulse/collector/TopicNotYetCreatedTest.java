package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.event.LineEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A collector started before its topic exists (a fresh fleet: agents first, then the pipeline). The producer cannot
 * find the topic's metadata, and its send() then returns a failed future rather than throwing: those lines must be
 * sent again once the topic is there, not counted as refused.
 */
@Tag("kafka")
class TopicNotYetCreatedTest {

  @TempDir Path dir;

  @Test
  void linesReadBeforeTheTopicExistsReachItOnceCreated() {
    Topics topics = Topics.defaults();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0)) {
      CollectorMetrics metrics = new CollectorMetrics();
      KafkaLineSink sink = new KafkaLineSink(SinkSettings.memoryOnly(kafka.connection(), topics.lines()),
          metrics);
      int lines = 40;
      try {
        for (int i = 0; i < lines; i++) {
          sink.send(LineEvent.of("host-a", "ticker", null, i, System.currentTimeMillis(), "tick " + i));
        }
        // send() waits max.block.ms (5 s) for metadata and gives up at least once before the topic appears
        await().atMost(Duration.ofSeconds(30)).until(() -> sink.failed() >= 1);
        kafka.createTopics(topics, 2);
        await().atMost(Duration.ofSeconds(60)).until(() -> sink.sent() == lines);
      } finally {
        sink.close();
      }
      SourceStats stats = metrics.stats("host-a", "ticker");
      assertThat(stats.dropped()).as("lines dropped").isZero();
      List<LineEvent> onTopic = TopicLines.readAll(kafka.bootstrapServers(), topics.lines(), lines,
          Duration.ofSeconds(30));
      assertThat(onTopic.stream().map(LineEvent::seq).toList()).as("every line once, in order")
          .containsExactlyElementsOf(LongStream.range(0, lines).boxed().toList());
    }
  }
}
