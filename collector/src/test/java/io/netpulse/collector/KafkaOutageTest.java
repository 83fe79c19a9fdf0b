package io.netpulse.collector;

import io.netpulse.common.catalog.Sources;
import io.netpulse.tools.Sampler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.event.LineEvent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Acceptance: the broker stops for 30 s in the middle of streaming and starts again on the same data and port. Lines
 * read meanwhile wait in memory, then in the disk spool, and reach the topic afterwards: none lost, the sequence of
 * every source contiguous and in order.
 */
@Tag("kafka")
class KafkaOutageTest {

  @TempDir Path dir;
  private final List<EmbeddedKafka> brokers = new ArrayList<>();

  @Test
  void brokerStoppedThirtySecondsLosesNoLineAndKeepsEverySequenceContiguous() throws Exception {
    Topics topics = Topics.defaults();
    Path kafkaDir = dir.resolve("broker");
    EmbeddedKafka kafka = EmbeddedKafka.start(kafkaDir, 0);
    try {
      streamThroughAnOutage(kafka, kafkaDir, topics);
    } finally {
      // also when an assertion fails: a broker left running while JUnit deletes its log dir halts this JVM
      brokers.forEach(EmbeddedKafka::close);
    }
  }

  private void streamThroughAnOutage(EmbeddedKafka first, Path kafkaDir, Topics topics) throws Exception {
    EmbeddedKafka kafka = first;
    brokers.add(kafka);
    String bootstrap = kafka.bootstrapServers();
    int port = Integer.parseInt(bootstrap.substring(bootstrap.lastIndexOf(':') + 1));
    kafka.createTopics(topics, 2);
    CollectorMetrics metrics = new CollectorMetrics();
    // a small memory buffer so that the outage goes through the disk spool
    SinkSettings settings = SinkSettings.spooled(io.netpulse.common.kafka.KafkaConnection.plain(bootstrap), topics.lines(), dir).withMemoryLines(200);
    KafkaLineSink sink = new KafkaLineSink(settings, metrics);
    ProcessLineSource ticker = new ProcessLineSource("host-a", "ticker", null,
        List.of("sh", "-c", "i=0; while :; do echo tick $i; i=$((i+1)); sleep 0.02; done"), Map.of(), sink, metrics);
    ProcessLineSource sar = new ProcessLineSource("host-b", Sources.SAR_DEV, null, Sampler.SAR_DEV.localCommand(),
        Map.of(), sink, metrics);
    try {
      ticker.start();
      sar.start();
      await().atMost(Duration.ofSeconds(30))
          .until(() -> metrics.stats("host-a", "ticker").sent() >= 100 && metrics.stats("host-b", Sources.SAR_DEV).sent() > 3);

      kafka.close();
      long readBefore = ticker.linesRead();
      Thread.sleep(30_000);
      SourceStats during = metrics.stats("host-a", "ticker");
      assertThat(ticker.linesRead() - readBefore).as("lines read while the broker was down").isGreaterThan(500);
      assertThat(during.spooled()).as("lines moved to the disk spool").isGreaterThan(300);
      try (var files = Files.list(dir.resolve("spool"))) {
        assertThat(files.count()).as("spool segments on disk").isPositive();
      }

      kafka = EmbeddedKafka.start(kafkaDir, port);
      brokers.add(kafka);
      await().atMost(Duration.ofSeconds(60)).until(() -> {
        SourceStats s = metrics.stats("host-a", "ticker");
        return s.sent() >= readBefore + 500 && s.sent() > s.read() - 100;
      });
    } finally {
      ticker.close();
      sar.close();
      sink.close();
    }

    for (SourceStats s : metrics.snapshot()) {
      assertThat(s.dropped()).as(s.id() + " dropped").isZero();
      assertThat(s.sent()).as(s.id() + " sent").isEqualTo(s.read());
    }
    long tickerLines = ticker.linesRead();
    long sarLines = sar.linesRead();
    List<LineEvent> onTopic = TopicLines.readAll(kafka.bootstrapServers(), topics.lines(), tickerLines + sarLines,
        Duration.ofSeconds(30));
    Map<String, TreeSet<Long>> seqs = TopicLines.seqBySource(onTopic);
    // the idempotent producer never gave up on a batch, so nothing was sent twice either
    assertThat(onTopic).hasSize((int) (tickerLines + sarLines));
    assertThat(seqs.get("host-a/ticker")).containsExactlyElementsOf(
        LongStream.range(0, tickerLines).boxed().toList());
    assertThat(seqs.get("host-b/sar-dev")).containsExactlyElementsOf(
        LongStream.range(0, sarLines).boxed().toList());
    assertThat(TopicLines.firstSeen(onTopic, "host-a", "ticker")).isSorted();
    assertThat(TopicLines.firstSeen(onTopic, "host-b", Sources.SAR_DEV)).isSorted();
    // the line text matches its number: the spool round trip kept content and order together
    onTopic.stream().filter(l -> l.source().equals("ticker"))
        .forEach(l -> assertThat(l.line()).isEqualTo("tick " + l.seq()));
  }
}
