package io.netpulse.launcher;

import io.netpulse.common.catalog.Sources;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.awaitility.Awaitility.await;

import io.netpulse.collector.KafkaLineSink;
import io.netpulse.collector.ProcessLineSource;
import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testbed.embedded.EmbeddedQuestDb;
import io.netpulse.testbed.netns.NetHost;
import io.netpulse.processor.ProcessorApp;
import io.netpulse.processor.store.InfluxStore;
import io.netpulse.processor.store.QuestDbStoreSchema;
import io.netpulse.processor.store.StoreWriter;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The whole skeleton with real parts: embedded KRaft broker, real sar on the measured test host,
 * real iperf3 traffic between two network-namespace hosts, the Kafka Streams processor, and the
 * embedded QuestDB written through influxdb-client-java. The receive rate read back from the store
 * with SQL must match the one the kernel's own byte counters give over the same seconds.
 */
@Tag("measurement")
class SkeletonEndToEndTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  @TempDir Path dataDir;

  @Test
  void storeReceiveRateMatchesProcNetDevWithinFivePercent() throws Exception {
    Topics topics = Topics.defaults();
    NetHost sut = HOSTS.sut();
    NetHost peer = HOSTS.peer();
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dataDir, 0);
        EmbeddedQuestDb questDb = EmbeddedQuestDb.start(dataDir.resolve("questdb"), 0)) {
      kafka.createTopics(topics, 2);
      QuestDbStoreSchema.apply(questDb::sql);
      try (ProcessorApp processor = ProcessorApp.start(kafka.connection(), topics,
              dataDir.resolve("streams"), "skeleton-test");
          InfluxStore store = new InfluxStore(questDb.url(), "unused".toCharArray(), "netpulse", "netpulse");
          StoreWriter writer = new StoreWriter(kafka.connection(), topics, store);
          KafkaLineSink sink = new KafkaLineSink(kafka.connection(), topics.lines());
          ProcessLineSource sar = new ProcessLineSource("sut", Sources.SAR_DEV, "skeleton",
              List.of("ip", "netns", "exec", sut.namespace(), "sar", "-n", "DEV", "1"),
              Map.of("LC_ALL", "C", "TZ", "UTC", "S_TIME_FORMAT", "ISO"), sink)) {
        writer.start();
        assertThat(processor.awaitRunning(Duration.ofSeconds(60))).isTrue();
        sar.start();

        HOSTS.network().start(sut, List.of("iperf3", "-s", "-B", sut.address(), "-p", "5201"));
        HOSTS.awaitListening(sut, 5201);
        HOSTS.network().start(peer, List.of("iperf3", "-c", sut.address(), "-p", "5201",
            "-t", "30", "-b", "400M", "-i", "0"));
        Thread.sleep(2500); // past TCP slow start

        // kernel counters at two whole-second boundaries, 8 s apart
        long a = nextSecond();
        sleepUntil(a);
        long bytesA = rxBytes(sut);
        long b = a + 8000;
        sleepUntil(b);
        long bytesB = rxBytes(sut);
        double kernelBps = (bytesB - bytesA) * 8.0 / ((b - a) / 1000.0);

        String where = "host = 'sut' and interface = '" + sut.iface() + "'"
            + " and timestamp >= " + (a * 1000) + " and timestamp < " + (b * 1000);
        // 8 seconds, 8 rows; on a loaded machine sar's timer may fire late and one row cover two seconds (7 rows)
        String count = "select count() n from net where " + where;
        try {
          await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500))
              .until(() -> number(questDb.sql(count), "n") >= 8);
        } catch (org.awaitility.core.ConditionTimeoutException e) {
          assertThat(number(questDb.sql(count), "n")).as("per-second rows in 8 s").isEqualTo(7);
        }
        double storeBps = number(questDb.sql("select avg(rx_bps) m from net where " + where), "m");

        assertThat(kernelBps).isGreaterThan(100e6);
        assertThat(storeBps).isCloseTo(kernelBps, within(kernelBps * 0.05));
        System.out.printf("kernel %.0f bit/s, store %.0f bit/s, diff %.2f %%%n",
            kernelBps, storeBps, 100 * (storeBps - kernelBps) / kernelBps);
      }
    }
  }

  private static long rxBytes(NetHost host) {
    String dev = HOSTS.exec(host, "cat", "/proc/net/dev");
    for (String line : dev.split("\n")) {
      String t = line.trim();
      if (t.startsWith(host.iface() + ":")) {
        return Long.parseLong(t.substring(t.indexOf(':') + 1).trim().split("\\s+")[0]);
      }
    }
    throw new AssertionError("no " + host.iface() + " in /proc/net/dev of " + host.namespace() + ":\n" + dev);
  }

  private static double number(List<Map<String, Object>> rows, String column) {
    assertThat(rows).hasSize(1);
    Object v = rows.get(0).get(column);
    return v == null ? Double.NaN : ((Number) v).doubleValue();
  }

  private static long nextSecond() {
    return (System.currentTimeMillis() / 1000 + 1) * 1000;
  }

  private static void sleepUntil(long epochMs) throws InterruptedException {
    long wait = epochMs - System.currentTimeMillis();
    if (wait > 0) {
      Thread.sleep(wait);
    }
  }
}
