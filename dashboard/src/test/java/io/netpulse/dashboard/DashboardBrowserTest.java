package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/** A real headless chromium loads the page while rates flow and sees the receive rate change. */
@Tag("browser")
class DashboardBrowserTest {

  static final String BUSY_HOST = "sut-1";
  /** A host name that would run script if the page ever used innerHTML. */
  static final String HOSTILE_HOST = "<img src=x onerror=\"document.title='pwned'\">";

  @TempDir Path tmp;

  @Test
  void pageShowsLiveReceiveRateOfBusiestHost() throws Exception {
    assumeTrue(HeadlessChromium.installed(),
        "skipped: needs Debian's chromium and chromedriver at " + HeadlessChromium.CHROMIUM + " and "
            + HeadlessChromium.CHROMEDRIVER + " (apt-get install chromium chromium-driver)");
    Topics topics = new Topics("browser.");
    Set<Long> sentBps = ConcurrentHashMap.newKeySet();
    Files.createDirectories(tmp.resolve("profile"));
    try (EmbeddedKafka kafka = EmbeddedKafka.start(tmp.resolve("data"), 0)) {
      kafka.createTopics(topics, 2);
      try (Dashboard dashboard = Dashboard.start(DashboardConfig.local(kafka.connection(), topics));
          RateTraffic traffic = new RateTraffic(kafka.bootstrapServers(), topics.metrics())) {
        dashboard.awaitLiveFeed(Duration.ofSeconds(30));
        try (RepeatingThread producer = new RepeatingThread("rate-producer", Duration.ofSeconds(1), i -> {
              long now = System.currentTimeMillis();
              long bps = 9_400_000_000L + (i % 7) * 13_000_000L + i; // distinct every second
              sentBps.add(bps);
              traffic.send(RateTraffic.rate(BUSY_HOST, "eth0", "rx_bps", now, bps));
              traffic.send(RateTraffic.rate(BUSY_HOST, "eth0", "rx_pps", now, 812_000 + i * 37));
              traffic.send(RateTraffic.rate(HOSTILE_HOST, "eth1", "rx_bps", now, 1_000_000));
            });
            HeadlessChromium chromium = HeadlessChromium.start(tmp.resolve("profile"), tmp.resolve("chromium.log"))) {
          ChromeDriver page = chromium.driver();
          page.get(dashboard.url());
          WebDriverWait wait = new WebDriverWait(page, Duration.ofSeconds(30));
          wait.until(d -> d.findElement(By.id("host")).getText().equals(BUSY_HOST)
              && d.findElement(By.id("rx-bps")).getText().matches("\\d+\\.\\d{3}"));

          String firstExact = page.findElement(By.id("rx-bps-exact")).getText();
          wait.until(d -> !d.findElement(By.id("rx-bps-exact")).getText().equals(firstExact));
          assertShownRateIsOneProduced(page, sentBps);
          assertThat(page.findElement(By.id("rx-pps-exact")).getText()).matches("8\\d\\d,\\d{3} packets/s");
          assertThat(page.findElement(By.id("rx-pps-unit")).getText()).isEqualTo("kpps");
          assertThat(page.findElements(By.cssSelector("#chart canvas"))).isNotEmpty();

          // names from the topics arrive as text, never as markup
          Select series = new Select(page.findElement(By.id("series")));
          assertThat(series.getOptions()).extracting(o -> o.getText())
              .contains(BUSY_HOST + " / eth0", HOSTILE_HOST + " / eth1");
          series.selectByVisibleText(HOSTILE_HOST + " / eth1");
          wait.until(d -> d.findElement(By.id("host")).getText().equals(HOSTILE_HOST));
          assertThat(page.findElements(By.tagName("img"))).isEmpty();
          assertThat(page.getTitle()).isEqualTo("netpulse — live receive rate");
          series.selectByIndex(0); // back to "busiest (auto)" for the screenshot
          wait.until(d -> d.findElement(By.id("host")).getText().equals(BUSY_HOST));

          HeadlessChromium.screenshot(page, "dashboard-live.png");
        }
      }
    }
  }

  /** The big number is the exact rate ÷ 10⁹, and the exact rate is one we produced. */
  private static void assertShownRateIsOneProduced(ChromeDriver page, Set<Long> sentBps) {
    // both read in one script: the page updates every second, and two round trips could straddle an update
    @SuppressWarnings("unchecked")
    List<String> shown = (List<String>) page.executeScript("return [document.getElementById('rx-bps-exact')"
        + ".innerText, document.getElementById('rx-bps').innerText];");
    String exact = shown.get(0);
    assertThat(exact).endsWith(" bit/s");
    long bps = Long.parseLong(exact.replace(" bit/s", "").replace(",", ""));
    assertThat(sentBps).contains(bps);
    assertThat(shown.get(1)).isEqualTo(String.format(Locale.ROOT, "%.3f", bps / 1e9));
    assertThat(page.findElement(By.id("rx-bps-unit")).getText()).isEqualTo("Gbit/s");
  }
}
