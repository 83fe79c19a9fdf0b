package io.netpulse.launcher.report;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.common.event.ResultEvent;
import java.io.PrintWriter;
import java.io.StringReader;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code report --format csv} names each row's execution and its plan's labels, one column label_KEY per key (the
 * dashboard's download has the same), quoted so that an RFC 4180 reader gets back labels with commas, quotes and
 * semicolons as they were.
 */
@Tag("unit")
class CsvReportLabelsTest {

  private static MetricSection section(String execution, Map<String, String> labels, String test, double... values) {
    TreeMap<Integer, Double> byRep = new TreeMap<>();
    for (int i = 0; i < values.length; i++) {
      byRep.put(i + 1, values[i]);
    }
    ResultEvent r = new ResultEvent(ResultEvent.SCHEMA, "q", test, "rx_bps", "bit/s", byRep, values.length, values[0],
        null, null, List.of("sut"), List.of("r1"), 1, execution, labels, List.of(), true, values.length,
        values.length, null, null);
    return new MetricSection(r, "rx_bandwidth", null, null, List.of(), List.of());
  }

  @Test
  void eachRowCarriesItsExecutionAndLabelsReadableByAnRfc4180Reader() throws Exception {
    Map<String, String> hostile = Map.of("instance_type", "c7.large, \"spot\"; eu", "image", "ami-1;ami-2",
        "owner", "@ops");
    // a later execution replaced one test only: each row has its own execution's labels
    PlanReport report = new PlanReport("q", "np.results", 0, List.of(
        section("q-1", hostile, "rx", 1e9, 2e9),
        section("q-2", Map.of("instance_type", "c7.xlarge", "region", "eu-1"), "rx2", 3e9, 4e9),
        section(null, null, "old", 5e9)));
    StringWriter text = new StringWriter();
    ReportFormat.csv.write(report, new PrintWriter(text));
    assertThat(text.toString()).contains("\r\n");
    List<CSVRecord> rows = CSVFormat.RFC4180.builder().setHeader().get().parse(new StringReader(text.toString()))
        .getRecords();
    assertThat(rows.get(0).getParser().getHeaderNames()).containsExactly("plan", "execution", "test", "type",
        "metric", "unit", "run_1", "run_2", "mean", "stddev", "ci95", "n", "hosts", "run_ids", "stop_1", "stop_2",
        "precision_1", "precision_2", "label_image", "label_instance_type", "label_owner", "label_region");
    assertThat(rows).hasSize(3).allMatch(CSVRecord::isConsistent);
    assertThat(rows.get(0).get("execution")).isEqualTo("q-1");
    assertThat(rows.get(0).get("label_instance_type")).isEqualTo("c7.large, \"spot\"; eu");
    assertThat(rows.get(0).get("label_image")).isEqualTo("ami-1;ami-2");
    assertThat(rows.get(0).get("label_owner")).as("defused for spreadsheets, as every text field").isEqualTo("'@ops");
    assertThat(rows.get(0).get("label_region")).isEmpty();
    assertThat(rows.get(1).get("execution")).isEqualTo("q-2");
    assertThat(rows.get(1).get("label_instance_type")).isEqualTo("c7.xlarge");
    assertThat(rows.get(1).get("label_region")).isEqualTo("eu-1");
    assertThat(rows.get(2).get("execution")).isEmpty();
    assertThat(rows.get(2).get("label_instance_type")).isEmpty();
  }
}
