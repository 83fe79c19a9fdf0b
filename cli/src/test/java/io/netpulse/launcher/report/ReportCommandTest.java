package io.netpulse.launcher.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.Topics;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.common.json.Json;
import io.netpulse.dashboard.HeadlessChromium;
import io.netpulse.cli.CliRun;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.support.ui.WebDriverWait;

/** {@code netpulse report} against a real embedded broker holding what an execution of a plan leaves. */
@Tag("browser")
class ReportCommandTest {

  static final Topics TOPICS = new Topics("rpt.");

  @TempDir static Path dir;
  static EmbeddedKafka kafka;
  static ReportFixture fixture;

  @BeforeAll
  static void broker() {
    kafka = EmbeddedKafka.start(dir.resolve("broker"), 0);
    kafka.createTopics(TOPICS, 2);
    fixture = new ReportFixture(TOPICS).write(kafka.bootstrapServers());
  }

  @AfterAll
  static void stop() {
    if (kafka != null) {
      kafka.close();
    }
  }

  /** {@code netpulse report ARGS} against the class's broker. */
  static CliRun report(String... args) {
    List<String> all = new ArrayList<>(List.of(args));
    all.addAll(List.of("--bootstrap-servers", kafka.bootstrapServers(), "--timeout", "20"));
    return netpulse(all);
  }

  /** {@code netpulse report ARGS} through the real command line, in this JVM. */
  static CliRun netpulse(List<String> args) {
    List<String> all = new ArrayList<>(List.of("report"));
    all.addAll(args);
    all.addAll(List.of("--topic-prefix", TOPICS.prefix()));
    return CliRun.of(all.toArray(String[]::new));
  }


  @Test
  void markdownIsTheResultTableWithUnitsAndEscapedNames() {
    CliRun r = report(ReportFixture.PLAN, "--format", "md");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).contains("| test | metric | unit | run 1 | run 2 | run 3 | mean | stddev | ± ci95 | n | stop |");
    assertThat(r.out()).contains("| latency | tcp_lat_us | us | 27.100 | 33.500 | 34.200 | 31.600 | 3.900 | 9.720 | 3 |");
    assertThat(r.out()).contains("| latency | rtt_avg_ms | ms | 0.1150 | 0.07200 | 0.06300 | 0.08333 | 0.02780 | 0.06904 | 3 |");
    assertThat(r.out()).contains("| rx &lt;b&gt;\"bw\"&lt;/b&gt;, &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; "
        + "| rx_bps | bit/s | 347938556.6 | 358195582.3 | 304140697.6 | 336758278.8 | 28706213.4 | 71318187.6 | 3 |");
    assertThat(r.out()).contains("| =SUM(A1) | trans_per_s | transactions/s | 55051.1 |");
    // why each repetition stopped, as the run's table says it
    assertThat(r.out()).contains("| 9.720 | 3 | duration |").contains("| 3 | precise ±0.75 % |");
    assertThat(r.out()).doesNotContain("<script>", "99.000", "elsewhere", "gone", "junk");
    // the newest execution's results only, with what they were measured on
    assertThat(r.out()).doesNotContain("88.800", "c6.large", ReportFixture.EARLIER);
    assertThat(r.out()).contains("Labels: instance_type=c7.large");
    assertThat(r.out()).contains("- host sut: kernel 6.1.0-test, Test CPU × 2 vCPUs, 7.6 GiB, driver virtio_net, MTU 1500, "
        + "offloads unknown (no ethtool on the host), eth0 with 2 queue(s)");
    // the repetitions' windows, once per test
    assertThat(r.out()).contains("| latency | 1 | " + ReportFixture.run(1, 1) + " | sut | - | ");
    assertThat(r.out().lines().filter(l -> l.startsWith("| =SUM(A1) | 2 |")).count()).isEqualTo(1);
    assertThat(r.out()).contains("| 10 | DONE |");
    // rows in the order the tests ran, metrics in the type's order
    assertThat(r.out().indexOf("| latency | tcp_lat_us")).isLessThan(r.out().indexOf("| latency | udp_lat_us"));
    assertThat(r.out().indexOf("| latency | rtt_avg_ms")).isLessThan(r.out().indexOf("| rx &lt;b&gt;"));
    assertThat(r.out().indexOf("| rx &lt;b&gt;")).isLessThan(r.out().indexOf("| =SUM(A1) | trans_per_s"));
    assertThat(r.out().indexOf("| =SUM(A1) | trans_per_s")).isLessThan(r.out().indexOf("| =SUM(A1) | rx_pps"));
  }

  @Test
  void seedFiguresAreARowUnderEachSarBitRateWithWhatTheyAre() {
    CliRun r = report(ReportFixture.PLAN, "--format", "md", "--seed-figures");
    assertThat(r.exit()).as(r.err()).isZero();
    String exact = "| rx &lt;b&gt;\"bw\"&lt;/b&gt;, &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; | rx_bps |";
    String seeds = "| rx &lt;b&gt;\"bw\"&lt;/b&gt;, &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; "
        + "| rx_bps_as_seeds | bit/s | 339783746.7 | 349800373.3 | 297012400 | 328865506.6 | 28033411.5 | 69646667.6 | 3 |";
    assertThat(r.out()).contains(seeds);
    assertThat(r.out().indexOf(seeds)).isGreaterThan(r.out().indexOf(exact));
    assertThat(r.out()).contains("rx_bps_as_seeds: rx_bps as seeds 000, 001 and 004 compute it");
    // sar's packet rate and the tools' own figures are the seeds' already
    assertThat(r.out()).doesNotContain("rx_pps_as_seeds", "trans_per_s_as_seeds", "lat_us_as_seeds");
    assertThat(report(ReportFixture.PLAN, "--format", "md").out()).doesNotContain("as_seeds");
    CliRun csv = report(ReportFixture.PLAN, "--format", "csv", "--seed-figures");
    assertThat(csv.out()).contains(",rx_bandwidth,rx_bps_as_seeds,bit/s,339783746.6796875,");
  }

  @Test
  void csvHasOneQuotedRowPerTestAndMetric() {
    CliRun r = report(ReportFixture.PLAN, "--format", "csv");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err()).contains("skipped 1 record(s) that were not netpulse events"); // the fixture's "not json {"
    List<String> lines = List.of(r.out().split("\r\n"));
    assertThat(lines).hasSize(7);
    assertThat(lines.get(0)).isEqualTo("plan,execution,test,type,metric,unit,run_1,run_2,run_3,mean,stddev,ci95,n,"
        + "hosts,run_ids,stop_1,stop_2,stop_3,precision_1,precision_2,precision_3,label_instance_type");
    assertThat(lines.get(1)).isEqualTo("np-report," + ReportFixture.EXECUTION + ",latency,latency,tcp_lat_us,us,"
        + "27.1,33.5,34.2,31.6,3.9,9.72,3,sut," + ReportFixture.run(1, 1) + " " + ReportFixture.run(1, 2) + " "
        + ReportFixture.run(1, 3) + ",duration,duration,duration,,,,c7.large");
    assertThat(lines.get(6)).contains(",precise,precise,precise,0.0025,0.005,0.0075,c7.large");
    assertThat(lines.get(4)).startsWith("np-report," + ReportFixture.EXECUTION
        + ",\"rx <b>\"\"bw\"\"</b>, </script><script>alert(1)</script>\",rx_bandwidth,rx_bps,bit/s,"
        + "347938556.6,358195582.3,304140697.6,336758278.8,28706213.4,71318187.6,3,sut,");
    assertThat(lines.get(5)).contains(",'=SUM(A1),tcp_rr,trans_per_s,transactions/s,55051.07,");
    assertThat(lines.get(6)).contains(",'=SUM(A1),tcp_rr,rx_pps,packets/s,51173.56,50000,52347.1,");
  }

  @Test
  void htmlIsSelfContainedWithEscapedNamesAndTheChartData() throws Exception {
    Path file = dir.resolve("report.html");
    CliRun r = report(ReportFixture.PLAN, "--output", file.toString());
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.err()).contains("report " + file.toAbsolutePath());
    assertThat(r.out()).isEmpty();
    String html = Files.readString(file, StandardCharsets.UTF_8);

    assertThat(html).startsWith("<!doctype html>");
    assertThat(Pattern.compile("(?i)(src|href)\\s*=\\s*[\"']?\\s*(https?:)?//").matcher(html).find()).isFalse();
    assertThat(html).doesNotContain("<link", "<script src");
    assertThat(html).contains("uPlot"); // inlined, not fetched
    assertThat(html).contains("<td>rx &lt;b&gt;&quot;bw&quot;&lt;/b&gt;, &lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;</td>");
    assertThat(html).doesNotContain("<script>alert(1)", "<b>\"bw\"");
    assertThat(html).contains("<td class=\"num\">3</td><td>precise ±0.75 %</td></tr>"); // each result's stop
    // exactly our three script elements: the data block, uPlot, the report's
    assertThat(Pattern.compile("(?i)<script").matcher(html).results().count()).isEqualTo(3);
    assertThat(Pattern.compile("(?i)</script").matcher(html).results().count()).isEqualTo(3);

    JsonNode data = dataBlock(html);
    assertThat(data.get("plan").asText()).isEqualTo(ReportFixture.PLAN);
    JsonNode sections = data.get("sections");
    assertThat(sections).hasSize(6);
    JsonNode bw = sections.get(3);
    assertThat(bw.get("test").asText()).isEqualTo(ReportFixture.HOSTILE);
    assertThat(bw.get("unit").asText()).isEqualTo("bit/s");
    assertThat(bw.get("ci95").asDouble()).isEqualTo(71318187.6);
    assertThat(bw.get("values").get(2).get("value").asDouble()).isEqualTo(304140697.6);
    JsonNode ps = bw.get("perSecond");
    assertThat(ps.get("metric").asText()).isEqualTo("rx_bps");
    // 1-s windows overlapping each 10-s measuring window that began 250 ms into a second: 11 of them
    assertThat(ps.get("x")).hasSize(11);
    assertThat(ps.get("x").get(0).asDouble()).isEqualTo(-0.25);
    assertThat(ps.get("series")).hasSize(3);
    JsonNode rep2 = ps.get("series").get(1);
    assertThat(rep2.get("repetition").asInt()).isEqualTo(2);
    assertThat(rep2.get("host").asText()).isEqualTo("sut");
    assertThat(rep2.get("iface").asText()).isEqualTo("eth0");
    for (int s = 0; s <= 10; s++) {
      assertThat(rep2.get("values").get(s).asDouble()).isEqualTo(ReportFixture.rxBps(2, s));
    }
    assertThat(sections.get(0).get("perSecond").isNull()).isTrue(); // latency: a tool figure, bars only
    assertThat(sections.get(4).get("perSecond").isNull()).isTrue(); // tcp_rr trans_per_s: a tool figure
    assertThat(sections.get(5).get("perSecond").get("series").get(0).get("values")).hasSize(10); // tcp_rr rx_pps
    assertThat(html).contains("id=\"series-3\"", "id=\"bars-3\"", "id=\"bars-0\"").doesNotContain("id=\"series-0\"");
  }

  /** The file, opened from disk with the network unused, draws every chart; the hostile name stays text. */
  @Test
  void htmlRendersItsChartsInHeadlessChromium() throws Exception {
    assumeTrue(HeadlessChromium.installed(), "skipped: needs Debian's chromium and chromedriver at "
        + HeadlessChromium.CHROMIUM + " and " + HeadlessChromium.CHROMEDRIVER + " (apt-get install chromium chromium-driver)");
    Path file = dir.resolve("browser.html");
    assertThat(report(ReportFixture.PLAN, "--output", file.toString()).exit()).isZero();
    Path profile = Files.createDirectories(dir.resolve("profile"));
    try (HeadlessChromium chromium = HeadlessChromium.start(profile, dir.resolve("chromium.log"))) {
      ChromeDriver page = chromium.driver();
      page.get(file.toUri().toString());
      // report.js sets data-charts only after drawing them all: a script error would leave it unset
      new WebDriverWait(page, Duration.ofSeconds(30)).until(d -> "8".equals(
          d.findElement(By.tagName("body")).getAttribute("data-charts"))); // 6 bar charts, 2 per-second charts
      assertThat(page.findElements(By.cssSelector(".uplot canvas"))).hasSize(8);
      Object painted = page.executeScript("""
          return Array.from(document.querySelectorAll('.uplot canvas')).map(function (c) {
            var px = c.getContext('2d').getImageData(0, 0, c.width, c.height).data, n = 0;
            for (var i = 3; i < px.length; i += 4) { if (px[i] > 0) { n++; } }
            return n;
          });""");
      assertThat((List<?>) painted).allSatisfy(n -> assertThat(((Number) n).longValue()).isGreaterThan(500));
      assertThat(page.findElement(By.cssSelector("#series-3 .u-legend")).getText())
          .contains("repetition 1", "repetition 2", "repetition 3");
      assertThat(page.findElement(By.cssSelector("#section-3 h2")).getText()).contains(ReportFixture.HOSTILE);
      assertThat(page.findElements(By.tagName("script"))).hasSize(3);
      assertThat(page.getTitle()).isEqualTo("netpulse report: " + ReportFixture.PLAN);
    }
  }

  @Test
  void planFileGivesTheNameAndTheOrder() throws Exception {
    Path plan = dir.resolve("plan.yaml");
    Files.writeString(plan, String.join("\n",
        "name: " + ReportFixture.PLAN,
        "hosts:",
        "  sut:  { address: 198.18.0.2 }",
        "  peer: { address: 198.18.0.1 }",
        "tests:",
        "  - { type: tcp_rr, name: \"" + ReportFixture.FORMULA + "\" }",
        "  - { type: latency }",
        ""));
    CliRun r = report(plan.toString(), "--format", "md");
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out()).startsWith("# netpulse report: plan np-report");
    assertThat(r.out().indexOf("| =SUM(A1) | trans_per_s")).isLessThan(r.out().indexOf("| latency | tcp_lat_us"));
    assertThat(r.out().indexOf("| latency | rtt_avg_ms")).isLessThan(r.out().indexOf("| rx &lt;b&gt;"));
  }

  @Test
  void noResultsIsOneLineAndExitTwo() {
    CliRun r = report("no-such-plan", "--format", "md");
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.out()).isEmpty();
    assertThat(r.err().strip()).isEqualTo("netpulse: no results for plan 'no-such-plan' on rpt.results (run it first "
        + "with 'netpulse run', or check the plan name, --bootstrap-servers and --topic-prefix)");
  }

  @Test
  void missingPlanFileIsOneLineAndExitTwo() {
    CliRun r = report(dir.resolve("nope.yaml").toString());
    assertThat(r.exit()).isEqualTo(2);
    assertThat(r.err().lines().count()).isEqualTo(1);
    assertThat(r.err()).contains("no plan file").doesNotContain("Exception");
  }

  /** Without --bootstrap-servers, what an embedded broker (an earlier run's) left under --data-dir is read. */
  @Test
  void readsAnEarlierEmbeddedBrokersDataDir() {
    Path data = dir.resolve("embedded");
    try (EmbeddedKafka earlier = EmbeddedKafka.start(data, 0)) {
      earlier.createTopics(TOPICS, 1);
      new ReportFixture(TOPICS).write(earlier.bootstrapServers());
    }
    CliRun r = netpulse(List.of(ReportFixture.PLAN, "--format", "csv", "--data-dir", data.toString()));
    assertThat(r.exit()).as(r.err()).isZero();
    assertThat(r.out().split("\r\n")).hasSize(7);

    CliRun none = netpulse(List.of(ReportFixture.PLAN, "--data-dir", dir.resolve("nothing-here").toString()));
    assertThat(none.exit()).isEqualTo(2);
    assertThat(none.err().strip()).startsWith("netpulse: no --bootstrap-servers given and no embedded Kafka data in ")
        .doesNotContain("\n");
  }

  @Test
  void defaultHtmlFileIsNamedAfterThePlan() {
    assertThat(ReportFormat.html.defaultFileName("xlarge-vs-xlarge")).isEqualTo("xlarge-vs-xlarge-report.html");
    assertThat(ReportFormat.html.defaultFileName("../a b/<c>")).isEqualTo("__a_b__c_-report.html");
  }

  static JsonNode dataBlock(String html) throws Exception {
    Matcher m = Pattern.compile("<script type=\"application/json\" id=\"report-data\">(.*?)</script>",
        Pattern.DOTALL).matcher(html);
    assertThat(m.find()).isTrue();
    assertThat(m.group(1)).doesNotContain("<", ">");
    return Json.mapper().readTree(m.group(1));
  }
}
