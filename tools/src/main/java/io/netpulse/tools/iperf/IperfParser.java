package io.netpulse.tools.iperf;

import io.netpulse.tools.iperf3.Iperf3Parser;
import io.netpulse.tools.parse.LineParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.parse.Text;

import io.netpulse.common.Units;
import io.netpulse.common.event.Sample;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * iperf 2.x text. Each stream's last report row spanning from 0 is its total: sender_bps on the
 * client, receiver_bps on a server ({@code Server listening}); earlier rows are interval_bps.
 * With {@code -P N} only {@code [SUM]} rows count ({@code [SUM-N]} with {@code --sum-only}). A UDP
 * {@code Server Report} gives receiver_bps, jitter_ms, lost, datagrams, loss_pct. ts = reference time + the
 * row's end.
 *
 * <p>As a {@link LineParser} it reads a client's streamed {@code -i 1 --sum-only} rows one at a time: each
 * {@code [SUM-N]} interval row is the client's total send rate over that second (interim_sender_bps), dated by
 * its arrival (the row carries only seconds since the client started, and iperf prints it at the interval's
 * end). The run's total row at the end (from 0, longer than an interval) and everything else give nothing.
 */
public final class IperfParser implements LineParser {

  public static final String FORMAT = "iperf";

  /** {@code --sum-only} labels the sum rows with their stream count. */
  private static final Pattern SUM_ONLY = Pattern.compile("^\\[SUM-\\d+\\]");
  /** A streamed row from 0 longer than this is the run's total, not a 1-s interval. */
  private static final double LONGEST_INTERVAL_S = 1.5;

  private static final Pattern LOSS = Pattern.compile(
      "\\s*(\\d+(?:\\.\\d+)?)\\s+ms\\s+(\\d+)/\\s*(\\d+)\\s+\\(([^)]*)%\\).*");

  private record Row(int line, String id, double start, double end, double bps, String rest) {}

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public ParseResult parse(List<String> lines, ParseContext context) {
    boolean hasSum = lines.stream().anyMatch(l -> l != null && l.contains("[SUM"));
    boolean server = lines.stream().anyMatch(l -> l != null && l.contains("Server listening"));
    List<Sample> samples = new ArrayList<>();
    List<ParseError> errors = new ArrayList<>();
    Map<String, List<Row>> byStream = new LinkedHashMap<>();
    boolean serverReport = false;
    int n = 0;
    for (String raw : lines) {
      n++;
      if (Text.tooLong(raw)) {
        errors.add(Text.tooLongError(n));
        continue;
      }
      String line = SUM_ONLY.matcher(Text.clean(raw)).replaceFirst("[SUM]");
      if (line.contains("Server Report:")) {
        serverReport = true;
        continue;
      }
      if (line.startsWith("connect failed") || line.contains("Connection refused")) {
        errors.add(new ParseError(n, null, "iperf reported: " + Text.shown(line)));
        continue;
      }
      Matcher m = Iperf3Parser.ROW.matcher(line);
      if (!m.matches()) {
        continue;
      }
      double factor = Text.bitRateFactor(m.group(7));
      var rate = Text.number(m.group(6));
      if (rate.isEmpty() || Double.isNaN(factor)) {
        errors.add(new ParseError(n, "Bandwidth", "expected a bit rate such as '5.46 Gbits/sec', got '"
            + Text.shown(m.group(6) + " " + m.group(7)) + "'"));
        continue;
      }
      Row row = new Row(n, m.group(1), Double.parseDouble(m.group(2)), Double.parseDouble(m.group(3)),
          rate.getAsDouble() * factor, m.group(8));
      if (serverReport) {
        serverReport(row, context, samples, errors);
        serverReport = false;
        continue;
      }
      if (hasSum != row.id().equals("SUM")) {
        continue;
      }
      byStream.computeIfAbsent(row.id(), k -> new ArrayList<>()).add(row);
    }
    for (List<Row> rows : byStream.values()) {
      for (int i = 0; i < rows.size(); i++) {
        Row r = rows.get(i);
        long ts = context.referenceMs() + Math.round(r.end() * 1000.0);
        boolean total = i == rows.size() - 1 && r.start() == 0
            && (i == 0 || r.end() - r.start() > rows.get(i - 1).end() - rows.get(i - 1).start());
        if (total) {
          samples.add(Sample.of(server ? "receiver_bps" : "sender_bps", r.bps(), Units.BITS_PER_S, null, ts)
              .asSummary());
          Matcher loss = LOSS.matcher(r.rest());
          if (server && loss.matches()) {
            lossSamples(loss, ts, samples);
          }
        } else {
          samples.add(Sample.of("interval_bps", r.bps(), Units.BITS_PER_S, null, ts));
        }
      }
    }
    String test = context.test();
    List<Sample> tagged = test == null ? samples : samples.stream().map(s -> s.withTest(test)).toList();
    return new ParseResult(tagged, errors);
  }

  @Override
  public ParseResult parseLine(String raw, int lineNumber, ParseContext context) {
    if (Text.tooLong(raw)) {
      return ParseResult.error(Text.tooLongError(lineNumber));
    }
    String line = Text.clean(raw);
    if (!SUM_ONLY.matcher(line).lookingAt()) {
      return ParseResult.empty();
    }
    Matcher m = Iperf3Parser.ROW.matcher(SUM_ONLY.matcher(line).replaceFirst("[SUM]"));
    if (!m.matches()) {
      return ParseResult.empty(); // the [SUM-cnt] header
    }
    double start = Double.parseDouble(m.group(2));
    double end = Double.parseDouble(m.group(3));
    if (start == 0 && end > LONGEST_INTERVAL_S) {
      return ParseResult.empty(); // the run's total: the interval rows before it already cover its time
    }
    double factor = Text.bitRateFactor(m.group(7));
    var rate = Text.number(m.group(6));
    if (rate.isEmpty() || Double.isNaN(factor)) {
      return ParseResult.error(new ParseError(lineNumber, "Bandwidth", "expected a bit rate such as "
          + "'4294967 Kbits/sec', got '" + Text.shown(m.group(6) + " " + m.group(7)) + "'"));
    }
    Sample s = Sample.of("interim_sender_bps", rate.getAsDouble() * factor, Units.BITS_PER_S, null,
        context.referenceMs());
    return ParseResult.of(List.of(context.test() == null ? s : s.withTest(context.test())));
  }

  private static void serverReport(Row row, ParseContext context, List<Sample> samples, List<ParseError> errors) {
    long ts = context.referenceMs() + Math.round(row.end() * 1000.0);
    samples.add(Sample.of("receiver_bps", row.bps(), Units.BITS_PER_S, null, ts).asSummary());
    Matcher loss = LOSS.matcher(row.rest());
    if (loss.matches()) {
      lossSamples(loss, ts, samples);
    } else {
      errors.add(new ParseError(row.line(), "Lost/Total Datagrams", "expected 'J ms L/T (P%)' in the server report"));
    }
  }

  private static void lossSamples(Matcher loss, long ts, List<Sample> samples) {
    double lost = Double.parseDouble(loss.group(2));
    double total = Double.parseDouble(loss.group(3));
    samples.add(Sample.of("jitter_ms", Double.parseDouble(loss.group(1)), Units.MILLISECONDS, null, ts).asSummary());
    samples.add(Sample.of("lost", lost, Units.COUNT, null, ts).asSummary());
    samples.add(Sample.of("datagrams", total, Units.COUNT, null, ts).asSummary());
    samples.add(Sample.of("loss_pct", total > 0 ? 100.0 * lost / total : 0, Units.PERCENT, null, ts).asSummary());
  }
}
