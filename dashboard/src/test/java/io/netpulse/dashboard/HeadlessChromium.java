package io.netpulse.dashboard;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TimeoutException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Debian's chromium, headless, started by us (so we hold its PID and stop it ourselves), with
 * Debian's chromedriver attached through the DevTools port: nothing is downloaded. Public: the launcher's
 * report test loads its HTML file with it (dashboard test-jar).
 */
public final class HeadlessChromium implements AutoCloseable {

  public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
  public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");

  private final Process browser;
  private final ChromeDriver driver;

  private HeadlessChromium(Process browser, ChromeDriver driver) {
    this.browser = browser;
    this.driver = driver;
  }

  public static boolean installed() {
    return Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER);
  }

  public static HeadlessChromium start(Path userDataDir, Path log) throws IOException, InterruptedException {
    ProcessBuilder builder = new ProcessBuilder(List.of(CHROMIUM.toString(),
            "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
            "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
            "--user-data-dir=" + userDataDir, "--remote-debugging-address=127.0.0.1",
            "--remote-debugging-port=0", "--window-size=1366,768", "about:blank"))
        .redirectErrorStream(true)
        .redirectOutput(log.toFile());
    // Chromium makes its singleton socket's directory (org.chromium.Chromium.*) in TMPDIR and leaves it when stopped:
    // in the profile, it goes with the test's temporary directory
    Files.createDirectories(userDataDir);
    builder.environment().put("TMPDIR", userDataDir.toString());
    Process browser = builder.start();
    try {
      int devToolsPort = awaitDevToolsPort(userDataDir, browser);
      System.setProperty("webdriver.chrome.driver", CHROMEDRIVER.toString()); // never Selenium Manager
      ChromeDriverService service = new ChromeDriverService.Builder()
          .usingDriverExecutable(new File(CHROMEDRIVER.toString()))
          .usingAnyFreePort()
          .build();
      ChromeOptions options = new ChromeOptions();
      options.setBinary(CHROMIUM.toString());
      options.setExperimentalOption("debuggerAddress", "127.0.0.1:" + devToolsPort);
      return new HeadlessChromium(browser, new ChromeDriver(service, options));
    } catch (IOException | InterruptedException | RuntimeException e) {
      stop(browser);
      throw e;
    }
  }

  /**
   * Waits until {@code what} holds on the page, and on timeout fails with what the page showed: a bare Selenium
   * timeout says nothing about why.
   */
  public void until(WebDriverWait wait, Predicate<WebDriver> what, String description) {
    try {
      wait.until(what::test);
    } catch (TimeoutException e) {
      throw new AssertionError("timed out waiting for " + description + "; the page showed:\n"
          + driver.findElement(By.tagName("body")).getText(), e);
    }
  }

  public ChromeDriver driver() {
    return driver;
  }

  /** Saves the page as target/{@code name} (the docs' screenshots) and returns its path; a blank page fails. */
  public static Path screenshot(ChromeDriver page, String name) throws IOException {
    Path shot = Path.of("target", name);
    Files.createDirectories(shot.getParent());
    Files.copy(page.getScreenshotAs(OutputType.FILE).toPath(), shot, StandardCopyOption.REPLACE_EXISTING);
    if (Files.size(shot) <= 10_000) {
      throw new AssertionError("screenshot " + shot + " is " + Files.size(shot) + " bytes: the page looks blank");
    }
    return shot;
  }

  long pid() {
    return browser.pid();
  }

  /** Chromium writes its DevTools port to the first line of this file once it listens. */
  private static int awaitDevToolsPort(Path userDataDir, Process browser)
      throws IOException, InterruptedException {
    Path file = userDataDir.resolve("DevToolsActivePort");
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      if (!browser.isAlive()) {
        throw new IOException("chromium exited with " + browser.exitValue() + " before listening");
      }
      if (Files.exists(file)) {
        List<String> lines = Files.readAllLines(file);
        if (!lines.isEmpty() && !lines.get(0).isBlank()) {
          return Integer.parseInt(lines.get(0).trim());
        }
      }
      Thread.sleep(100);
    }
    throw new IOException("chromium did not write " + file + " within 30 s");
  }

  @Override
  public void close() {
    try {
      driver.quit(); // ends the chromedriver session and its process; the browser is ours to stop
    } finally {
      stop(browser);
    }
  }

  /** Stops chromium by its PID, then any of its helper processes still alive, by theirs. */
  private static void stop(Process browser) {
    List<ProcessHandle> children = browser.descendants().toList();
    browser.destroy();
    try {
      if (!browser.waitFor(10, TimeUnit.SECONDS)) {
        browser.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    children.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
  }
}
