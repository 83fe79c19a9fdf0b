package io.netpulse.processor.run;

import io.netpulse.common.catalog.Sources;
import io.netpulse.common.event.Sample;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.Parsers;
import io.netpulse.processor.topology.Recorded;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/** The series recorded for these tests (see resources io/netpulse/processor/run/README.md), parsed. */
final class RecordedSeries {

  private RecordedSeries() {}

  static String text(String name) {
    try (InputStream in = Recorded.class.getResourceAsStream("/io/netpulse/processor/run/" + name)) {
      if (in == null) {
        throw new IllegalArgumentException("no recording " + name);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** A sar recording's per-second samples, placed on {@code host} and {@code run}. */
  static List<Sample> sar(String name, String host, String run) {
    ParseResult r = Parsers.forFormat(Sources.SAR_DEV).parse(text(name).lines().toList(),
        new ParseContext(ZoneOffset.UTC, 0, null));
    if (!r.errors().isEmpty()) {
      throw new IllegalStateException("recording " + name + " does not parse: " + r.errors());
    }
    return r.samples().stream().filter(s -> !s.summary()).map(s -> s.withOrigin(host, run, Sources.SAR_DEV)).toList();
  }

  /** The ss -s recording: each TCP line stamped with the epoch ms line before it. */
  static List<Sample> ss(String host, String run) {
    List<Sample> out = new ArrayList<>();
    long ts = 0;
    for (String line : text("ss-ramp.txt").lines().toList()) {
      if (line.startsWith("# ")) {
        ts = Long.parseLong(line.substring(2).strip());
        continue;
      }
      for (Sample s : Parsers.lineParser("ss-summary").orElseThrow()
          .parseLine(line, 0, new ParseContext(ZoneOffset.UTC, ts, null)).samples()) {
        out.add(s.withOrigin(host, run, "ss-summary"));
      }
    }
    return out;
  }
}
