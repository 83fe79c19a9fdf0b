package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Topics;
import io.netpulse.common.event.RateEvent;
import io.netpulse.common.event.RunEvent.Phase;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The runs, results and fleet pages in a real headless Chromium while events flow through the embedded broker: the
 * live value of a running test changes, its repetition values and mean ± CI appear, results tables and the comparison
 * are filled, and the fleet view holds 1,000 hosts, filters and sorts them. Screenshots go to target/.
 */
@Tag("browser")
class DashboardPagesBrowserTest {

  static final String HOSTILE = "<img src=x onerror=\"document.title='pwned'\">";

  @TempDir Path tmp;

  @Test
  void runsResultsAndFleetPages() throws Exception {
    try (DashboardBed bed = DashboardBed.withBrowser(tmp, "pages.")) {
      Topics topics = bed.topics;
      Dashboard dashboard = bed.dashboard;
      RateTraffic traffic = bed.traffic;
      HeadlessChromium chromium = bed.chromium();
      dashboard.awaitLiveFeed(Duration.ofSeconds(30));
      ChromeDriver page = chromium.driver();
      WebDriverWait wait = new WebDriverWait(page, Duration.ofSeconds(30));
      runView(topics, traffic, dashboard, page, wait);
      resultsView(topics, traffic, dashboard, chromium, wait);
      fleetView(traffic, dashboard, page, wait);
      assertThat(page.findElements(By.tagName("img"))).isEmpty();
    }
  }

  private void runView(Topics topics, RateTraffic traffic, Dashboard dashboard, ChromeDriver page, WebDriverWait wait)
      throws Exception {
    long t0 = System.currentTimeMillis();
    traffic.event(topics.runs(), "r1", Events.run("r1", "xlarge", "rx", "rx_bandwidth", 1, Phase.WARMUP, t0,
        "sut", "eth0"));
    page.get(dashboard.url() + "runs.html");
    wait.until(d -> text(d, "run-test").equals("rx") && text(d, "run-phase").equals("WARMUP"));

    try (RepeatingThread rates = new RepeatingThread("run-rates", Duration.ofMillis(300), i -> {
      long s = i + 1L; // seconds 1, 2, 3, … of the run
      traffic.send(RateTraffic.rate("sut", "eth0", "rx_bps", t0 + s * 1000, 9.0e9 + s * 1e6));
    })) {
      traffic.event(topics.runs(), "r1", Events.run("r1", "xlarge", "rx", "rx_bandwidth", 1, Phase.MEASURING,
          t0 + 2000, "sut", "eth0"));
      wait.until(d -> text(d, "run-phase").equals("MEASURING") && text(d, "run-now").matches("9\\.0\\d\\d"));
      String first = text(page, "run-now");
      wait.until(d -> !text(d, "run-now").equals(first));
      assertThat(text(page, "run-now-unit")).isEqualTo("Gbit/s");
      assertThat(page.findElements(By.cssSelector("#run-chart canvas"))).isNotEmpty();
      assertThat(text(page, "run-remaining")).matches("\\d+ s");
    }
    traffic.event(topics.steady(), "r1", Events.steady("r1", "sut", "eth0", "rx_bps", 9.01e9, t0 + 9000));
    traffic.event(topics.results(), "xlarge/rx/rx_bps", Events.result("xlarge", "rx", "rx_bps", "bit/s", 9.01e9));
    traffic.event(topics.runs(), "r1", Events.run("r1", "xlarge", "rx", "rx_bandwidth", 1, Phase.DONE, t0 + 10_000,
        "sut", "eth0"));
    wait.until(d -> text(d, "run-phase").equals("DONE") && d.findElement(By.id("reps")).getText().contains("#1"));
    assertThat(page.findElement(By.id("reps")).getText()).contains("rx_bps").contains("9.010 Gbit/s");
    HeadlessChromium.screenshot(page, "dashboard-runs.png");
  }

  private void resultsView(Topics topics, RateTraffic traffic, Dashboard dashboard, HeadlessChromium chromium,
      WebDriverWait wait) throws Exception {
    ChromeDriver page = chromium.driver();
    // labelled as users label plans: the compare view shows each side's
    String large = "large-20261201T100000Z";
    String xlarge = "xlarge-20261201T100000Z";
    Map<String, String> largeLabels = Map.of("instance_type", "c7.large", "region", "eu-1");
    Map<String, String> xlargeLabels = Map.of("instance_type", "c7.xlarge", "region", "eu-1");
    long t0 = System.currentTimeMillis();
    traffic.event(topics.results(), "xlarge/rx/rx_bps", Events.result("xlarge", xlarge, xlargeLabels, t0, "rx",
        "rx_bps", "bit/s", 9.4e9, 9.5e9, 9.3e9));
    traffic.event(topics.results(), "large/rx/rx_bps", Events.result("large", large, largeLabels, t0, "rx", "rx_bps",
        "bit/s", 4.7e9, 4.8e9, 4.6e9));
    traffic.event(topics.results(), "large/latency/tcp_lat_us", Events.result("large", large, largeLabels, t0 + 1,
        "latency", "tcp_lat_us", "us", 21.5, 22.5, 22.0));
    traffic.event(topics.results(), "xlarge/latency/tcp_lat_us", Events.result("xlarge", xlarge, xlargeLabels,
        t0 + 1, "latency", "tcp_lat_us", "us", 18.5, 19.0, 18.6));
    // a hostile test name in a plan of its own, sorted after the others: the page opens on large and xlarge, whose
    // screenshot goes into the docs, and the hostile one is looked at below
    traffic.event(topics.results(), "xss/" + HOSTILE + "/tcp_lat_us", Events.result("xss", HOSTILE, "tcp_lat_us",
        "us", 21.5, 22.5, 22.0));
    page.get(dashboard.url() + "results.html");
    chromium.until(wait, d -> d.findElement(By.id("results")).getText()
        .contains("4.700 Gbit/s / 4.800 Gbit/s / 4.600 Gbit/s"), "plan large's runs");
    // why each repetition stopped, as the run's table says it: per reason, the widest precision
    assertThat(page.findElement(By.id("results")).getText()).contains("precise ±0.50 %").contains("duration");
    assertThat(page.findElement(By.id("csv")).getAttribute("href")).endsWith("/api/results?plan=large&format=csv&download=true");
    // A is plan large's execution, B xlarge's: B ÷ A (DashboardCompareBrowserTest has more of the compare view)
    chromium.until(wait, d -> new Select(d.findElement(By.id("exec-b"))).getOptions().size() == 3, "three executions");
    new Select(page.findElement(By.id("exec-a"))).selectByValue(large);
    new Select(page.findElement(By.id("exec-b"))).selectByValue(xlarge);
    chromium.until(wait, d -> d.findElement(By.id("compare")).getText().contains("2.000"), "the comparison's ratio");
    assertThat(page.findElement(By.id("compare")).getText()).contains("4.700 Gbit/s ±").contains("9.400 Gbit/s ±")
        .contains("<0.0001").contains("better (higher is better)"); // B's verdict, as netpulse compare gives it
    chromium.until(wait, d -> d.findElement(By.id("compare")).getText().contains("better (lower is better)"),
        "the latency row's verdict");
    HeadlessChromium.screenshot(page, "dashboard-results.png");

    // names from the topics are text, never HTML: in the results table and in the comparison
    chromium.until(wait, d -> new Select(d.findElement(By.id("plan"))).getOptions().stream()
        .anyMatch(o -> o.getText().equals("xss")), "plan xss in the list");
    new Select(page.findElement(By.id("plan"))).selectByVisibleText("xss");
    new Select(page.findElement(By.id("exec-b"))).selectByValue("xss-20261201T100000Z");
    chromium.until(wait, d -> d.findElement(By.id("results")).getText().contains(HOSTILE), "the hostile name as text");
    // large and xss have no test in common: the hostile one is listed as only in B
    chromium.until(wait, d -> d.findElement(By.id("compare-only")).getText().contains(HOSTILE),
        "the same in the comparison");
    assertThat(page.findElement(By.id("results")).getText()).contains("tcp_lat_us").contains("22.00 us");
    assertThat(page.findElements(By.tagName("img"))).isEmpty();
  }

  private void fleetView(RateTraffic traffic, Dashboard dashboard, ChromeDriver page, WebDriverWait wait)
      throws Exception {
    int hosts = 1000;
    long now = System.currentTimeMillis();
    List<RateEvent> rates = new ArrayList<>();
    for (int h = 0; h < hosts; h++) {
      String host = String.format("host-%04d", h);
      rates.add(RateTraffic.rate(host, "eth0", "rx_bps", now, 1e9 + h * 1e6));
      rates.add(RateTraffic.rate(host, "eth0", "tx_bps", now, 5e8 + h));
      rates.add(RateTraffic.rate(host, "eth0", "rx_pps", now, 80_000 + h));
      rates.add(RateTraffic.rate(host, "eth0", "tx_pps", now, 40_000 + h));
    }
    traffic.sendAll(rates);
    page.get(dashboard.url() + "fleet.html");
    wait.until(d -> text(d, "count").startsWith((hosts + 1) + " of " + (hosts + 1))); // and the run's sut
    // only the rows in view are in the DOM
    assertThat(page.findElements(By.cssSelector("#fleet tbody tr[data-host]"))).hasSizeLessThan(100);

    page.findElement(By.cssSelector("th[data-key=rxBps]")).click(); // biggest first
    wait.until(d -> firstHost(d).equals("sut"));
    page.findElement(By.id("filter")).sendKeys("host-");
    wait.until(d -> text(d, "count").startsWith(hosts + " of"));
    assertThat(firstHost(page)).isEqualTo("host-0999");

    // a second of new rates: the row follows
    traffic.sendAll(List.of(RateTraffic.rate("host-0007", "eth0", "rx_bps", now + 1000, 7.7e9)));
    wait.until(d -> firstHost(d).equals("host-0007"));
    // read in one script: the page redraws its rows every second, so a row element held across calls goes stale
    @SuppressWarnings("unchecked")
    List<Object> row = (List<Object>) page.executeScript("const r = document.querySelector("
        + "\"#fleet tbody tr[data-host='host-0007']\"); return [r.innerText, r.querySelectorAll('canvas').length];");
    assertThat((String) row.get(0)).contains("7.700 Gbit/s");
    assertThat(((Number) row.get(1)).intValue()).isEqualTo(1);
    HeadlessChromium.screenshot(page, "dashboard-fleet.png");
  }

  /** In one script, for the same reason as above: the rows are redrawn every second. */
  private static String firstHost(org.openqa.selenium.WebDriver d) {
    Object host = ((org.openqa.selenium.JavascriptExecutor) d).executeScript(
        "const r = document.querySelector('#fleet tbody tr[data-host]'); return r ? r.dataset.host : '';");
    return host == null ? "" : host.toString();
  }


  private static String text(org.openqa.selenium.WebDriver d, String id) {
    return d.findElement(By.id(id)).getText();
  }

}
