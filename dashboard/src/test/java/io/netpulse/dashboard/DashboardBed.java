package io.netpulse.dashboard;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openqa.selenium.chrome.ChromeDriver;

/**
 * What the dashboard's end-to-end tests stand on: an embedded broker of its own under {@code dir}, the topics created,
 * a dashboard reading them, a producer for rates and events, and, for the browser tests, a headless Chromium. Closed
 * in reverse order of start, also when a later start fails.
 */
final class DashboardBed implements AutoCloseable {

  final Topics topics;
  final EmbeddedKafka kafka;
  final Dashboard dashboard;
  final RateTraffic traffic;
  private final HeadlessChromium chromium;

  private DashboardBed(Topics topics, EmbeddedKafka kafka, Dashboard dashboard, RateTraffic traffic,
      HeadlessChromium chromium) {
    this.topics = topics;
    this.kafka = kafka;
    this.dashboard = dashboard;
    this.traffic = traffic;
    this.chromium = chromium;
  }

  /** Broker, topics (prefix {@code topicPrefix}), dashboard and producer; no browser. */
  static DashboardBed start(Path dir, String topicPrefix) throws Exception {
    return start(dir, topicPrefix, false);
  }

  /** As {@link #start}, with headless Chromium; skips the test where Debian's chromium is not installed. */
  static DashboardBed withBrowser(Path dir, String topicPrefix) throws Exception {
    assumeTrue(HeadlessChromium.installed(), "skipped: needs Debian's chromium and chromedriver at "
        + HeadlessChromium.CHROMIUM + " and " + HeadlessChromium.CHROMEDRIVER
        + " (apt-get install chromium chromium-driver)");
    return start(dir, topicPrefix, true);
  }

  private static DashboardBed start(Path dir, String topicPrefix, boolean browser) throws Exception {
    Topics topics = new Topics(topicPrefix);
    EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("data"), 0);
    Dashboard dashboard = null;
    RateTraffic traffic = null;
    try {
      kafka.createTopics(topics, 2);
      dashboard = Dashboard.start(DashboardConfig.local(kafka.connection(), topics));
      traffic = new RateTraffic(kafka.bootstrapServers(), topics.metrics());
      HeadlessChromium chromium = null;
      if (browser) {
        Files.createDirectories(dir.resolve("profile"));
        chromium = HeadlessChromium.start(dir.resolve("profile"), dir.resolve("chromium.log"));
      }
      return new DashboardBed(topics, kafka, dashboard, traffic, chromium);
    } catch (Exception | Error e) {
      closeQuietly(traffic, dashboard, kafka);
      throw e;
    }
  }

  HeadlessChromium chromium() {
    if (chromium == null) {
      throw new IllegalStateException("this bed was started without a browser");
    }
    return chromium;
  }

  ChromeDriver page() {
    return chromium().driver();
  }

  @Override
  public void close() {
    closeQuietly(chromium, traffic, dashboard, kafka);
  }

  private static void closeQuietly(AutoCloseable... inOrder) {
    for (AutoCloseable c : inOrder) {
      if (c == null) {
        continue;
      }
      try {
        c.close();
      } catch (Exception e) {
        // the rest must still close; the test's own failure, if any, is the one to report
      }
    }
  }
}
