package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.Topics;
import io.netpulse.common.event.ResultEvent;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.Select;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The results page's compare view in headless Chromium, with three labelled executions on the embedded broker: two
 * executions picked from the list give B's verdicts and both sides' labels; a label selector typed for B picks the
 * execution it names; a malformed selector and one that matches nothing each show one line saying what is wrong
 * with B, and no rows; a metric of one side only is listed under the rows. Screenshot: target/dashboard-compare.png.
 */
@Tag("browser")
class DashboardCompareBrowserTest {

  static final String SLOW = "qual-20261201T100000Z";
  static final String FAST = "qual-20261201T110000Z";
  static final String OTHER = "other-20261201T120000Z";

  @TempDir Path tmp;

  @Test
  void pickTwoExecutionsOrTypeASelectorAndSeeTheVerdicts() throws Exception {
    try (DashboardBed bed = DashboardBed.withBrowser(tmp, "cmpui.")) {
      Topics topics = bed.topics;
      Dashboard dashboard = bed.dashboard;
      RateTraffic traffic = bed.traffic;
      HeadlessChromium chromium = bed.chromium();
      long t0 = System.currentTimeMillis() - 3_600_000;
      Map<String, String> slow = Map.of("instance_type", "c7.large", "link", "40mbit");
      Map<String, String> fast = Map.of("instance_type", "c7.xlarge", "link", "80mbit");
      send(traffic, topics, Events.result("qual", SLOW, slow, t0, "rx", "rx_bps", "bit/s", 38.1e6, 38.9e6, 37.6e6));
      send(traffic, topics, Events.result("qual", SLOW, slow, t0 + 1, "lat", "rtt_avg_ms", "ms", 0.081, 0.072,
          0.090));
      send(traffic, topics, Events.result("qual", FAST, fast, t0 + 600_000, "rx", "rx_bps", "bit/s", 76.4e6, 77.8e6,
          75.9e6));
      send(traffic, topics, Events.result("qual", FAST, fast, t0 + 600_001, "lat", "rtt_avg_ms", "ms", 0.079, 0.085,
          0.070));
      // the newest execution: of another plan, so the page's default pair is not the one the test picks
      send(traffic, topics, Events.result("other", OTHER, Map.of("instance_type", "m7.large"), t0 + 900_000, "rx",
          "rx_bps", "bit/s", 1e6, 1.1e6));

      ChromeDriver page = chromium.driver();
      WebDriverWait wait = new WebDriverWait(page, Duration.ofSeconds(30));
      page.get(dashboard.url() + "results.html");
      chromium.until(wait, d -> new Select(d.findElement(By.id("exec-a"))).getOptions().size() == 3,
          "the three executions in A's list");
      WebElement optionText = new Select(page.findElement(By.id("exec-a"))).getOptions().get(2);
      assertThat(optionText.getText()).startsWith(SLOW).contains("instance_type=c7.large, link=40mbit")
          .contains(" UTC");

      new Select(page.findElement(By.id("exec-a"))).selectByValue(SLOW);
      new Select(page.findElement(By.id("exec-b"))).selectByValue(FAST);
      chromium.until(wait, d -> text(d, "side-b").contains(FAST) && text(d, "compare").contains("2.008"),
          "B's rows against A");
      assertThat(text(page, "side-a")).isEqualTo("A: execution " + SLOW + " · plan qual · labels "
          + "instance_type=c7.large, link=40mbit");
      assertThat(text(page, "side-b")).contains("labels instance_type=c7.xlarge, link=80mbit");
      String rows = text(page, "compare");
      assertThat(rows).contains("rx rx_bps 38.200 Mbit/s ±", "(3)", "better (higher is better)",
          "no significant difference (lower is better)");
      assertThat(page.findElement(By.cssSelector("#compare td.better")).getText())
          .isEqualTo("better (higher is better)");
      assertThat(page.findElement(By.id("compare-error")).isDisplayed()).isFalse();
      HeadlessChromium.screenshot(page, "dashboard-compare.png");

      // typed for B: a selector naming the slow execution; against itself nothing differs
      type(page, "typed-b", "link=40mbit");
      chromium.until(wait, d -> text(d, "side-b").contains(SLOW), "B from the selector");
      assertThat(text(page, "compare")).contains("1.000").doesNotContain("better (");

      type(page, "typed-b", "instance_type=");
      chromium.until(wait, d -> d.findElement(By.id("compare-error")).isDisplayed(), "the malformed selector's line");
      assertThat(text(page, "compare-error")).isEqualTo("b: label selector 'instance_type=': expected "
          + "KEY=VALUE[,KEY=VALUE...], got 'instance_type='");
      assertThat(page.findElements(By.cssSelector("#compare tbody tr"))).isEmpty();
      assertThat(text(page, "side-b")).isEmpty();

      type(page, "typed-b", "instance_type=m9.huge");
      chromium.until(wait, d -> text(d, "compare-error").contains("m9.huge"), "the unmatched selector's line");
      assertThat(text(page, "compare-error")).isEqualTo("b: no execution on cmpui.results has the labels "
          + "instance_type=m9.huge (labels come from the plan's 'labels:')");

      // picking from the list again replaces what was typed
      new Select(page.findElement(By.id("exec-b"))).selectByValue(FAST);
      chromium.until(wait, d -> !d.findElement(By.id("compare-error")).isDisplayed()
          && text(d, "compare").contains("better (higher is better)"), "the picked pair's rows again");
      assertThat(page.findElement(By.id("typed-b")).getAttribute("value")).isEmpty();

      // a test and metric of one side only (the JSON's onlyInA) is listed under the rows, not compared
      new Select(page.findElement(By.id("exec-b"))).selectByValue(OTHER);
      chromium.until(wait, d -> text(d, "compare-only").contains("lat/rtt_avg_ms"), "what only A has");
      assertThat(text(page, "compare-only")).isEqualTo("only in A (not compared): lat/rtt_avg_ms");
    }
  }

  private static void send(RateTraffic traffic, Topics topics, ResultEvent r) {
    traffic.event(topics.results(), r.key(), r);
  }

  private static void type(ChromeDriver page, String id, String what) {
    WebElement input = page.findElement(By.id(id));
    input.clear();
    input.sendKeys(what, Keys.ENTER);
  }

  private static String text(WebDriver d, String id) {
    return d.findElement(By.id(id)).getText();
  }

}
