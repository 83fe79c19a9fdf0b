package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.dashboard.HeadlessChromium;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The dashboard's run view in headless Chromium during a real {@code netpulse run} on the namespace test hosts (used
 * by {@link RunReportEndToEndTest}, whose run it follows): the page the run prints shows the running test, its phase
 * and the per-second receive rate from the SUT's sar, then each repetition's value as the processor makes it. A
 * screenshot goes to target/run-dashboard.png.
 */
final class RunDashboardView {

  private RunDashboardView() {}

  /** Follows the run's dashboard on {@code port} until {@code test} has a value for its first repetition. */
  static void follow(CompletableFuture<RunEndToEndTest.Run> run, int port, Path dir, String test) throws Exception {
    if (!HeadlessChromium.installed()) {
      System.err.println("run view not checked: needs Debian's chromium and chromium-driver");
      return;
    }
    Files.createDirectories(dir.resolve("profile"));
    try (HeadlessChromium chromium = HeadlessChromium.start(dir.resolve("profile"), dir.resolve("chromium.log"))) {
      ChromeDriver page = chromium.driver();
      WebDriverWait wait = new WebDriverWait(page, Duration.ofSeconds(90));
      wait.pollingEvery(Duration.ofMillis(250));
      awaitListening(port, run); // the dashboard starts with the run's pipeline, a few seconds after the run
      page.get("http://127.0.0.1:" + port + "/runs.html");
      chromium.until(wait, d -> text(d, "run-test").equals(test) && text(d, "run-phase").equals("MEASURING")
          && text(d, "run-now-unit").endsWith("bit/s"), test + " measuring with a live rate");
      // the exact figure beside the host: at a capped link the scaled one (3 digits) may not move
      String first = text(page, "run-host");
      chromium.until(wait, d -> !text(d, "run-host").equals(first), "the live rate to change");
      assertThat(page.findElements(By.cssSelector("#run-chart canvas"))).isNotEmpty();
      chromium.until(wait, d -> d.findElement(By.id("reps")).getText().contains("#1"),
          "repetition 1's value from the processor");
      assertThat(page.findElement(By.id("reps")).getText()).contains("rx_bps").contains("bit/s");
      Path shot = Path.of("target", "run-dashboard.png");
      Files.copy(page.getScreenshotAs(OutputType.FILE).toPath(), shot, StandardCopyOption.REPLACE_EXISTING);
    }
  }

  private static void awaitListening(int port, CompletableFuture<RunEndToEndTest.Run> run)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (System.nanoTime() < deadline && !run.isDone()) {
      try (java.net.Socket s = new java.net.Socket("127.0.0.1", port)) {
        return;
      } catch (java.io.IOException notYet) {
        Thread.sleep(200);
      }
    }
    throw new AssertionError("the run's dashboard never listened on port " + port
        + (run.isDone() ? "; the run ended: " + run.join().stderr() : ""));
  }

  private static String text(org.openqa.selenium.WebDriver d, String id) {
    try {
      return d.findElement(By.id(id)).getText();
    } catch (org.openqa.selenium.NoSuchElementException | org.openqa.selenium.StaleElementReferenceException e) {
      return "";
    }
  }
}
