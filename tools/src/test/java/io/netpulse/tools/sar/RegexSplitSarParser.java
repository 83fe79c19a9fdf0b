package io.netpulse.tools.sar;

import io.netpulse.common.Units;
import io.netpulse.common.event.Sample;
import java.time.LocalDate;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The straightforward sar row parser (a regex to recognise the row, String.split for the columns,
 * Double.parseDouble, java.time for the date) that SarDevParserBench measures SarDevParser against.
 */
final class RegexSplitSarParser {

  private static final Pattern ROW = Pattern.compile(
      "^(\\d{2}:\\d{2}:\\d{2}(?: [AP]M)?|Average:)\\s+(\\S+)((?:\\s+[\\d.]+){7,8})\\s*$");

  private final LocalDate date;

  RegexSplitSarParser(LocalDate date) {
    this.date = date;
  }

  List<Sample> parseLine(String line) {
    Matcher m = ROW.matcher(line);
    if (!m.matches() || m.group(2).equals("IFACE")) {
      return List.of();
    }
    String[] cols = m.group(3).trim().split("\\s+");
    String time = m.group(1);
    boolean summary = time.equals("Average:");
    long ts = 0;
    if (!summary) {
      String[] hms = time.split("[: ]");
      int h = Integer.parseInt(hms[0]);
      if (hms.length == 4) {
        h = h % 12 + (hms[3].equals("PM") ? 12 : 0);
      }
      ts = date.atTime(LocalTime.of(h, Integer.parseInt(hms[1]), Integer.parseInt(hms[2])))
          .toInstant(ZoneOffset.UTC).toEpochMilli();
    }
    String iface = m.group(2);
    List<Sample> out = new ArrayList<>(4);
    out.add(Sample.of("rx_pps", Double.parseDouble(cols[0]), Units.PACKETS_PER_S, iface, ts));
    out.add(Sample.of("tx_pps", Double.parseDouble(cols[1]), Units.PACKETS_PER_S, iface, ts));
    out.add(Sample.of("rx_bps", Double.parseDouble(cols[2]) * Units.SYSSTAT_KB_TO_BITS, Units.BITS_PER_S, iface, ts));
    out.add(Sample.of("tx_bps", Double.parseDouble(cols[3]) * Units.SYSSTAT_KB_TO_BITS, Units.BITS_PER_S, iface, ts));
    if (summary) {
      out.replaceAll(Sample::asSummary);
    }
    return out;
  }
}
