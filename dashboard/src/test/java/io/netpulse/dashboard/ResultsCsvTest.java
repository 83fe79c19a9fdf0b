package io.netpulse.dashboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ResultsCsvTest {

  @Test
  void oneRowPerResultWithEveryRunAndTheUnitNamed() {
    String csv = ResultsCsv.of(List.of(
        Events.result("xlarge", "rx", "rx_bps", "bit/s", 9.4e9, 9.5e9, 9.3e9),
        Events.result("xlarge", "lat", "tcp_lat_us", "us", 21.5, 22.0)));
    String[] lines = csv.split("\r\n");
    assertThat(lines[0]).isEqualTo("plan,test,metric,unit,hosts,run_1,run_2,run_3,n,mean,stddev,ci95");
    assertThat(lines[1]).startsWith("xlarge,rx,rx_bps,bit/s,sut peer,9.4E9,9.5E9,9.3E9,3,9.4E9,");
    assertThat(lines[2]).startsWith("xlarge,lat,tcp_lat_us,us,sut peer,21.5,22.0,,2,21.75,");
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
