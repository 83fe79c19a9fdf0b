package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.StringReader;
import java.util.List;
import java.util.Map;
import org.apache.commons.csv.CSVFormat;
import org.apache.commons.csv.CSVRecord;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

@Tag("unit")
class ResultsCsvTest {

  @Test
  void oneRowPerResultWithEveryRunAndTheUnitNamed() {
    String csv = ResultsCsv.of(List.of(
        Events.result("xlarge", "rx", "rx_bps", "bit/s", 9.4e9, 9.5e9, 9.3e9),
        Events.result("xlarge", "lat", "tcp_lat_us", "us", 21.5, 22.0)));
    String[] lines = csv.split("\r\n");
    assertThat(lines[0]).isEqualTo("plan,execution,test,metric,unit,hosts,run_1,run_2,run_3,n,mean,stddev,ci95,"
        + "stop_1,stop_2,stop_3,precision_1,precision_2,precision_3");
    assertThat(lines[1]).startsWith("xlarge,xlarge-20261201T100000Z,rx,rx_bps,bit/s,sut peer,9.4E9,9.5E9,9.3E9,3,"
        + "9.4E9,");
    assertThat(lines[2]).startsWith("xlarge,xlarge-20261201T100000Z,lat,tcp_lat_us,us,sut peer,21.5,22.0,,2,21.75,");
  }

  /**
   * Each label in a column label_KEY (keys of all rows, sorted; empty where a row has none), values with commas,
   * quotes and semicolons quoted so that an RFC 4180 reader gets them back as they were.
   */
  @Test
  void labelsAreColumnsPerKeyThatAnRfc4180ReaderReadsBack() throws Exception {
    Map<String, String> hostile = Map.of("instance_type", "c7.large, \"spot\"; eu", "image", "ami-1;ami-2",
        "note", "=1+1");
    String csv = ResultsCsv.of(List.of(
        Events.result("q", "q-1", hostile, 1, "rx", "rx_bps", "bit/s", 1e9, 2e9),
        Events.result("r", "r-1", Map.of("region", "eu-1"), 2, "rx", "rx_bps", "bit/s", 3e9),
        Events.result("s", "s-1", null, 3, "rx", "rx_bps", "bit/s", 4e9)));
    List<CSVRecord> rows = CSVFormat.RFC4180.builder().setHeader().get().parse(new StringReader(csv)).getRecords();
    assertThat(rows).hasSize(3);
    assertThat(rows.get(0).getParser().getHeaderNames()).containsExactly("plan", "execution", "test", "metric", "unit",
        "hosts", "run_1", "run_2", "n", "mean", "stddev", "ci95", "stop_1", "stop_2", "precision_1", "precision_2",
        "label_image", "label_instance_type", "label_note", "label_region");
    // why each repetition stopped and its value's precision, as netpulse report --format csv has them
    assertThat(rows.get(0).get("stop_1")).isEqualTo("precise");
    assertThat(rows.get(0).get("precision_1")).isEqualTo("0.004");
    assertThat(rows.get(0).get("precision_2")).isEqualTo("0.005");
    assertThat(rows.get(1).get("stop_2")).as("r has one repetition").isEmpty();
    assertThat(rows.get(0).get("execution")).isEqualTo("q-1");
    assertThat(rows.get(0).get("label_instance_type")).isEqualTo("c7.large, \"spot\"; eu");
    assertThat(rows.get(0).get("label_image")).isEqualTo("ami-1;ami-2");
    assertThat(rows.get(0).get("label_note")).as("defused for spreadsheets, as every text field").isEqualTo("'=1+1");
    assertThat(rows.get(0).get("label_region")).isEmpty();
    assertThat(rows.get(1).get("label_region")).isEqualTo("eu-1");
    assertThat(rows.get(1).get("label_instance_type")).isEmpty();
    assertThat(rows.get(2).get("label_region")).isEmpty();
    assertThat(rows).allMatch(CSVRecord::isConsistent);
  }

  @Test
  void aStopOfAResultFromBeforeStopsWereRecordedIsEmptyAndADurationStopHasNoPrecision() throws Exception {
    String csv = ResultsCsv.of(List.of(
        Events.result("q", "q-1", null, 1, "lat", "tcp_lat_us", "us", 21.5, 22.0),
        Events.result("old", "rx", "rx_bps", "bit/s", 1e9)));
    List<CSVRecord> rows = CSVFormat.RFC4180.builder().setHeader().get().parse(new StringReader(csv)).getRecords();
    assertThat(rows.get(0).get("stop_2")).isEqualTo("duration");
    assertThat(rows.get(0).get("precision_2")).isEmpty();
    assertThat(rows.get(1).get("stop_1")).isEmpty();
    assertThat(rows).allMatch(CSVRecord::isConsistent);
  }

  @Test
  void namesFromTheTopicsAreQuotedAndDefusedForSpreadsheets() {
    assertThat(ResultsCsv.field("a,b")).isEqualTo("\"a,b\"");
    assertThat(ResultsCsv.field("say \"hi\"")).isEqualTo("\"say \"\"hi\"\"\"");
    assertThat(ResultsCsv.field("=HYPERLINK(\"x\")")).isEqualTo("\"'=HYPERLINK(\"\"x\"\")\"");
    assertThat(ResultsCsv.field("-1+2")).isEqualTo("'-1+2");
    assertThat(ResultsCsv.field("line\nbreak")).isEqualTo("\"line\nbreak\"");
  }
}
