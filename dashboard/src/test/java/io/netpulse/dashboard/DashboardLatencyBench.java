package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.event.RunEvent.Phase;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Benchmark, not part of the default suite (its name does not end in Test): time from a rate produced to Kafka to the
 * value on the page, in headless Chromium, on the live run view and on the live rate page. The baseline, measured in
 * the same run on the same events, is a plain Kafka consumer's receive time. Prints p50 / p99 / max; the target is
 * p99 ≤ 2 s. Run with:
 *
 * <pre>mvn -q -DskipTests install && mvn -pl dashboard test -Dtest=DashboardLatencyBench</pre>
 *
 * Options: {@code -Dbench.events=250} (per page, ≥ 200), {@code -Dbench.intervalMs=200}, {@code -Dbench.hosts=1000},
 * {@code -Dbench.fleetSeconds=30}, {@code -Dbench.only=fleet}.
 */
@Tag("measurement")
class DashboardLatencyBench {

  @TempDir Path tmp;

  @Test
  void eventToBrowser() throws Exception {
    assumeTrue(HeadlessChromium.installed(), "needs Debian's chromium and chromium-driver");
    int events = Integer.getInteger("bench.events", 250);
    long intervalMs = Long.getLong("bench.intervalMs", 200);
    Topics topics = new Topics("bench.");
    Files.createDirectories(tmp.resolve("profile"));
    try (EmbeddedKafka kafka = EmbeddedKafka.start(tmp.resolve("data"), 0)) {
      kafka.createTopics(topics, 2);
      try (Dashboard dashboard = Dashboard.start(DashboardConfig.local(kafka.connection(), topics));
          RateTraffic traffic = new RateTraffic(kafka.bootstrapServers(), topics.metrics());
          HeadlessChromium chromium = HeadlessChromium.start(tmp.resolve("profile"), tmp.resolve("chromium.log"));
          KafkaConsumer<byte[], byte[]> baseline = baselineConsumer(kafka.bootstrapServers(), topics.metrics())) {
        dashboard.awaitLiveFeed(Duration.ofSeconds(30));
        ChromeDriver page = chromium.driver();
        long t0 = System.currentTimeMillis() / 1000 * 1000;
        traffic.event(topics.runs(), "bench-1", Events.run("bench-1", "bench", "rx", "rx_bandwidth", 1,
            Phase.MEASURING, t0, "sut", "eth0"));

        boolean fleetOnly = "fleet".equals(System.getProperty("bench.only"));
        if (!fleetOnly) {
          latencies(page, dashboard, traffic, baseline, t0, events, intervalMs);
        }
        fleet(page, dashboard, traffic, Integer.getInteger("bench.hosts", 1000),
            Integer.getInteger("bench.fleetSeconds", 30));
      }
    }
  }

  private static void latencies(ChromeDriver page, Dashboard dashboard, RateTraffic traffic,
      KafkaConsumer<byte[], byte[]> baseline, long t0, int events, long intervalMs) throws Exception {
    page.get(dashboard.url() + "runs.html");
    new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> "rx".equals(d.findElement(By.id("run-test")).getText())
        && "live".equals(d.findElement(By.id("status")).getText()));
    measure("run view (runs.html)", page, traffic, baseline, t0, events, intervalMs);

    page.get(dashboard.url() + "index.html");
    new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> d.findElement(By.id("host")).getText().equals("sut"));
    measure("live rate (index.html)", page, traffic, baseline, t0 + events * 1000L, events, intervalMs);
  }

  private static void measure(String what, ChromeDriver page, RateTraffic traffic,
      KafkaConsumer<byte[], byte[]> baseline, long firstEnd, int events, long intervalMs) throws Exception {
    Map<Long, Long> produced = new HashMap<>(); // window end -> produced at
    Map<Long, Long> consumed = new HashMap<>();
    for (int i = 1; i <= events; i++) {
      long windowEnd = firstEnd + i * 1000L;
      produced.put(windowEnd, System.currentTimeMillis());
      traffic.send(RateTraffic.rate("sut", "eth0", "rx_bps", windowEnd, 9.0e9 + i));
      long until = System.currentTimeMillis() + intervalMs;
      while (System.currentTimeMillis() < until) {
        poll(baseline, consumed, Math.max(1, until - System.currentTimeMillis()));
      }
    }
    long drainUntil = System.currentTimeMillis() + 3000;
    while (System.currentTimeMillis() < drainUntil) {
      poll(baseline, consumed, 100);
    }
    @SuppressWarnings("unchecked")
    List<List<Number>> shown = (List<List<Number>>) page.executeScript("return window.np.shownLog;");
    List<Long> browser = new ArrayList<>();
    for (List<Number> s : shown) {
      Long at = produced.get(s.get(0).longValue());
      if (at != null) {
        browser.add(s.get(1).longValue() - at);
      }
    }
    List<Long> kafkaOnly = new ArrayList<>();
    consumed.forEach((end, at) -> {
      Long p = produced.get(end);
      if (p != null) {
        kafkaOnly.add(at - p);
      }
    });
    System.out.printf(Locale.ROOT, "BENCH dashboard %s: %d events at one per %d ms%n", what, events, intervalMs);
    System.out.println("BENCH   baseline, Kafka consumer: " + summary(kafkaOnly));
    System.out.println("BENCH   produced -> shown in the browser: " + summary(browser));
    assertThat(browser).as("events shown on the page").hasSizeGreaterThanOrEqualTo(events * 9 / 10);
  }

  /**
   * The fleet view under a fleet's load: every host's four 1-s rates each second. Prints how long the page's renders
   * take (one per animation frame at most; smooth means well under a 16-ms frame) and how old the rows are.
   */
  private static void fleet(ChromeDriver page, Dashboard dashboard, RateTraffic traffic, int hosts, int seconds)
      throws Exception {
    page.get(dashboard.url() + "fleet.html");
    long start = System.currentTimeMillis() / 1000 * 1000;
    for (int s = 0; s < seconds; s++) {
      long windowEnd = start + s * 1000L;
      List<io.netpulse.common.event.RateEvent> rates = new ArrayList<>(hosts * 4);
      for (int h = 0; h < hosts; h++) {
        String host = String.format(Locale.ROOT, "host-%04d", h);
        for (String metric : List.of("rx_bps", "tx_bps", "rx_pps", "tx_pps")) {
          rates.add(RateTraffic.rate(host, "eth0", metric, windowEnd, 1e6 * (h + 1) + s));
        }
      }
      traffic.sendAll(rates);
      long next = windowEnd + 1000;
      while (System.currentTimeMillis() < next) {
        Thread.sleep(20);
      }
    }
    @SuppressWarnings("unchecked")
    List<Number> renders = (List<Number>) page.executeScript("return window.np.renderLog;");
    String count = page.findElement(By.id("count")).getText();
    List<Long> micros = renders.stream().map(n -> Math.round(n.doubleValue() * 1000)).toList();
    List<Long> sorted = micros.stream().sorted().toList();
    System.out.printf(Locale.ROOT, "BENCH dashboard fleet view (fleet.html): %d hosts x 4 rates/s for %d s; page shows"
        + " '%s'%n", hosts, seconds, count);
    System.out.printf(Locale.ROOT, "BENCH   render time per frame: n=%d p50=%.1f ms p90=%.1f ms max=%.1f ms%n",
        sorted.size(), pct(sorted, 0.5) / 1000.0, pct(sorted, 0.9) / 1000.0, sorted.get(sorted.size() - 1) / 1000.0);
    assertThat(Integer.parseInt(count.split(" ")[0])).as(count).isGreaterThanOrEqualTo(hosts);
  }

  private static void poll(KafkaConsumer<byte[], byte[]> consumer, Map<Long, Long> consumed, long ms) {
    for (ConsumerRecord<byte[], byte[]> r : consumer.poll(Duration.ofMillis(ms))) {
      long now = System.currentTimeMillis();
      try {
        // a row's rate is of the second starting at its time: the dashboard's point ends a second later
        long end = io.netpulse.common.json.Json.read(r.value(), io.netpulse.common.event.WideSample.class).time() + 1000;
        consumed.putIfAbsent(end, now);
      } catch (java.io.IOException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  private static KafkaConsumer<byte[], byte[]> baselineConsumer(String bootstrap, String topic) {
    Properties p = new Properties();
    p.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    KafkaConsumer<byte[], byte[]> c = new KafkaConsumer<>(p, new ByteArrayDeserializer(), new ByteArrayDeserializer());
    List<TopicPartition> parts = c.partitionsFor(topic).stream().map(i -> new TopicPartition(topic, i.partition()))
        .toList();
    c.assign(parts);
    c.seekToEnd(parts);
    parts.forEach(c::position);
    return c;
  }

  private static String summary(List<Long> latencies) {
    if (latencies.isEmpty()) {
      return "no samples";
    }
    List<Long> sorted = latencies.stream().sorted().toList();
    return String.format(Locale.ROOT, "n=%d p50=%d ms p99=%d ms max=%d ms", sorted.size(), pct(sorted, 0.50),
        pct(sorted, 0.99), sorted.get(sorted.size() - 1));
  }

  private static long pct(List<Long> sorted, double q) {
    return sorted.get(Math.min(sorted.size() - 1, (int) Math.ceil(q * sorted.size()) - 1));
  }
}
