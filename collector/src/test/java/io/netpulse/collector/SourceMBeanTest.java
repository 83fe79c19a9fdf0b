package io.netpulse.collector;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Each running source is an MBean io.netpulse:type=collector,host=H,source=S with its live counters. */
@Tag("kafka")
class SourceMBeanTest {

  @TempDir Path dir;

  private static final MBeanServer JMX = ManagementFactory.getPlatformMBeanServer();

  @Test
  void runningSourceIsAnMBeanWithItsCountersAndIsUnregisteredAtClose() throws Exception {
    Topics topics = Topics.defaults();
    String host = "jmx:host,1"; // ':' and ',' must be quoted in an ObjectName value
    CollectorMetrics metrics = new CollectorMetrics();
    ObjectName name = SourceMBean.objectName(host, "ticker");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("broker"), 0)) {
      kafka.createTopics(topics, 1);
      try (KafkaLineSink sink = new KafkaLineSink(SinkSettings.memoryOnly(kafka.connection(), topics.lines()),
          metrics)) {
        assertThat(JMX.isRegistered(name)).as("before start").isFalse();
        try (ProcessLineSource source = new ProcessLineSource(host, "ticker", null,
            List.of("sh", "-c", "echo a; echo b; echo c; exec sleep 60"), Map.of(), sink, metrics).start()) {
          assertThat(JMX.isRegistered(name)).as("after start").isTrue();
          await().atMost(Duration.ofSeconds(30)).until(() -> (Long) JMX.getAttribute(name, "LinesSent") == 3);
          SourceStats stats = metrics.stats(host, "ticker");
          assertThat(JMX.getAttribute(name, "LinesRead")).isEqualTo(stats.read()).isEqualTo(3L);
          assertThat(JMX.getAttribute(name, "LinesSent")).isEqualTo(stats.sent());
          assertThat(JMX.getAttribute(name, "LinesSpooled")).isEqualTo(stats.spooled());
          assertThat(JMX.getAttribute(name, "LinesDropped")).isEqualTo(stats.dropped());
          assertThat(JMX.getAttribute(name, "Restarts")).isEqualTo(stats.restarts());
          assertThat(JMX.getAttribute(name, "Gaps")).isEqualTo(stats.gaps());
          assertThat(JMX.getAttribute(name, "GapMillis")).isEqualTo(stats.gapMillis());
          // the name found by a JMX client's query carries the original host back
          ObjectName found = JMX.queryNames(new ObjectName("io.netpulse:type=collector,source=ticker,*"), null)
              .iterator().next();
          assertThat(ObjectName.unquote(found.getKeyProperty("host"))).isEqualTo(host);
        }
        assertThat(JMX.isRegistered(name)).as("after close").isFalse();
      }
    }
  }

  @Test
  void countsChangesSuchAsRestartsLive() throws Exception {
    CollectorMetrics metrics = new CollectorMetrics();
    ObjectName name = SourceMBean.objectName("h", "dies");
    try (ProcessLineSource source = new ProcessLineSource("h", "dies", null, List.of("sh", "-c", "echo x; exit 3"),
        Map.of(), new RecordingSink(), metrics).restartOnExit(true).start()) {
      // the restart is counted when the new process starts, its line a moment later
      await().atMost(Duration.ofSeconds(15)).until(() -> (Long) JMX.getAttribute(name, "Restarts") >= 1
          && (Long) JMX.getAttribute(name, "LinesRead") >= 2);
      long jmxRestarts = (Long) JMX.getAttribute(name, "Restarts");
      // read later than JMX: maybe one restart more
      assertThat(metrics.stats("h", "dies").restarts()).isGreaterThanOrEqualTo(jmxRestarts);
    }
    assertThat(JMX.isRegistered(name)).isFalse();
  }

  @Test
  void countsTheGapOfACollectorRestart() throws Exception {
    Path data = dir.resolve("data");
    ObjectName name = SourceMBean.objectName("h", "once");
    List<String> oneLine = List.of("sh", "-c", "echo x; exec sleep 60");
    try (SequenceStore before = SequenceStore.open(data);
        ProcessLineSource source = new ProcessLineSource("h", "once", null, oneLine, Map.of(), before,
            new RecordingSink(), new CollectorMetrics()).start()) {
      await().atMost(Duration.ofSeconds(10)).until(() -> source.linesRead() == 1);
    }
    Thread.sleep(200); // a restart takes time: the gap is above 0
    CollectorMetrics metrics = new CollectorMetrics();
    try (SequenceStore after = SequenceStore.open(data);
        ProcessLineSource source = new ProcessLineSource("h", "once", null, oneLine, Map.of(), after,
            new RecordingSink(), metrics).start()) {
      await().atMost(Duration.ofSeconds(10)).until(() -> source.linesRead() == 1);
      SourceStats stats = metrics.stats("h", "once");
      assertThat(stats.restartGaps()).isEqualTo(1);
      assertThat(stats.restartGapMillis()).isGreaterThanOrEqualTo(200);
      assertThat(JMX.getAttribute(name, "RestartGaps")).isEqualTo(1L);
      assertThat(JMX.getAttribute(name, "RestartGapMillis")).isEqualTo(stats.restartGapMillis());
    }
  }

  @Test
  void plainNamesStayUnquotedAndOddOnesAreQuoted() throws Exception {
    assertThat(SourceMBean.objectName("198.18.0.2", Sources.SAR_DEV))
        .hasToString("io.netpulse:type=collector,host=198.18.0.2,source=sar-dev");
    ObjectName odd = SourceMBean.objectName("a=b", "s\"q");
    assertThat(ObjectName.unquote(odd.getKeyProperty("host"))).isEqualTo("a=b");
    assertThat(ObjectName.unquote(odd.getKeyProperty("source"))).isEqualTo("s\"q");
  }

  @Test
  void secondSourceOfTheSameNameLeavesTheFirstRegistered() {
    CollectorMetrics metrics = new CollectorMetrics();
    try (SourceMBean first = SourceMBean.register("dup", "s", metrics.of("dup", "s"));
        SourceMBean second = SourceMBean.register("dup", "s", metrics.of("dup", "s"))) {
      assertThat(first.isRegistered()).isTrue();
      assertThat(second.isRegistered()).isFalse();
      second.close();
      assertThat(JMX.isRegistered(first.name())).isTrue();
    }
    assertThat(JMX.isRegistered(SourceMBean.objectName("dup", "s"))).isFalse();
  }
}
