package io.netpulse.tools.iperf3;

import io.netpulse.tools.parse.OutputParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.parse.Text;

import io.netpulse.common.Units;
import io.netpulse.common.event.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * iperf3, text or {@code -J} (told apart by a leading {@code {}). Text: per-interval rows give
 * interval_bps (and interval_pps for UDP, from Total Datagrams), the {@code sender} /
 * {@code receiver} rows sender_bps / receiver_bps, UDP rows jitter_ms, lost, datagrams, loss_pct.
 * With {@code -P N} only the {@code [SUM]} rows count. Text has no clock: ts is the context's
 * reference time plus the interval's end. A client interrupted (SIGTERM, Ctrl-C) still prints its summary, but the
 * server's side of it as 0 ({@code 0.00 Bytes ... receiver}, captured in iperf3-tcp-P2-i1-fk-term.txt): those
 * receiver rows are errors, not a receive rate of 0.
 */
public final class Iperf3Parser implements OutputParser {

  public static final String FORMAT = "iperf3";

  public static final Pattern ROW = Pattern.compile(
      "\\[\\s*(\\d+|SUM)\\]\\s+(\\d+(?:\\.\\d+)?)\\s*-\\s*(\\d+(?:\\.\\d+)?)\\s+sec\\s+(\\S+)\\s+(\\S*Bytes)"
          + "\\s+(\\d+(?:\\.\\d+)?)\\s+(\\S+/sec)(.*)");
  private static final Pattern UDP_LOSS = Pattern.compile(
      "\\s*(\\d+(?:\\.\\d+)?)\\s+ms\\s+(\\d+)/\\s*(\\d+)\\s+\\(([0-9.e+-]+|-?nan)%\\)\\s*(sender|receiver)?\\s*");
  private static final Pattern TRAILING_ROLE = Pattern.compile(".*\\b(sender|receiver)\\s*$");
  private static final Pattern DATAGRAMS = Pattern.compile("\\s*(\\d+)\\s*");

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public ParseResult parse(List<String> lines, ParseContext context) {
    for (String line : lines) {
      String t = line == null ? "" : line.strip();
      if (!t.isEmpty()) {
        if (t.startsWith("{")) {
          return Iperf3JsonReader.read(String.join("\n", lines), lines.size(), context);
        }
        break;
      }
    }
    boolean hasSum = lines.stream().anyMatch(l -> l != null && l.contains("[SUM]"));
    // a lone number after the rate is Total Datagrams for UDP but Retr for a TCP [SUM] row
    boolean udp = lines.stream().anyMatch(l -> l != null && l.contains("Total Datagrams"));
    List<Sample> samples = new ArrayList<>();
    List<ParseError> errors = new ArrayList<>();
    int n = 0;
    boolean interrupted = false;
    for (String raw : lines) {
      n++;
      if (Text.tooLong(raw)) {
        errors.add(Text.tooLongError(n));
        continue;
      }
      String line = Text.clean(raw);
      if (line.startsWith("iperf3: error") || line.startsWith("iperf3: interrupt")) {
        errors.add(new ParseError(n, null, "iperf3 reported: " + Text.shown(line)));
        interrupted |= line.startsWith("iperf3: interrupt");
        continue;
      }
      if (!line.startsWith("[")) {
        continue;
      }
      Matcher m = ROW.matcher(line);
      if (!m.matches()) {
        continue; // [ ID] headers, "connected to" lines
      }
      if (hasSum != m.group(1).equals("SUM")) {
        continue; // with -P N the SUM rows are the host's figures
      }
      if (interrupted && m.group(8).strip().endsWith("receiver")) {
        errors.add(new ParseError(n, "receiver", "the client was interrupted before the server's figures came back "
            + "(iperf3 prints 0 for them), so there is no receive rate"));
        continue;
      }
      ParseResult r = row(m, n, udp, context);
      samples.addAll(r.samples());
      errors.addAll(r.errors());
    }
    String test = context.test();
    List<Sample> tagged = test == null ? samples : samples.stream().map(s -> s.withTest(test)).toList();
    return new ParseResult(tagged, errors);
  }

  private static ParseResult row(Matcher m, int n, boolean udp, ParseContext context) {
    double start = Double.parseDouble(m.group(2));
    double end = Double.parseDouble(m.group(3));
    var rate = Text.number(m.group(6));
    double factor = Text.bitRateFactor(m.group(7));
    if (rate.isEmpty() || Double.isNaN(factor)) {
      return ParseResult.error(new ParseError(n, "Bitrate", "expected a bit rate such as '4.62 Gbits/sec', got '"
          + Text.shown(m.group(6) + " " + m.group(7)) + "'"));
    }
    double bps = rate.getAsDouble() * factor;
    long ts = context.referenceMs() + Math.round(end * 1000.0);
    String rest = m.group(8);
    Matcher loss = UDP_LOSS.matcher(rest);
    Matcher role = TRAILING_ROLE.matcher(rest);
    List<Sample> out = new ArrayList<>();
    if (loss.matches()) {
      String who = loss.group(5);
      if (who == null || who.equals("receiver")) {
        // the sender row of UDP repeats the plan (jitter 0): loss is the receiver's count
        out.add(summary("jitter_ms", Double.parseDouble(loss.group(1)), Units.MILLISECONDS, ts));
        out.add(summary("lost", Double.parseDouble(loss.group(2)), Units.COUNT, ts));
        out.add(summary("datagrams", Double.parseDouble(loss.group(3)), Units.COUNT, ts));
        double total = Double.parseDouble(loss.group(3));
        out.add(summary("loss_pct", total > 0 ? 100.0 * Double.parseDouble(loss.group(2)) / total : 0,
            Units.PERCENT, ts));
      }
      out.add(summary("sender".equals(who) ? "sender_bps" : "receiver_bps", bps, Units.BITS_PER_S, ts));
      return ParseResult.of(out);
    }
    if (role.matches()) {
      out.add(summary(role.group(1) + "_bps", bps, Units.BITS_PER_S, ts));
      return ParseResult.of(out);
    }
    out.add(Sample.of("interval_bps", bps, Units.BITS_PER_S, null, ts));
    Matcher datagrams = DATAGRAMS.matcher(rest);
    if (udp && datagrams.matches() && end > start) {
      out.add(Sample.of("interval_pps", Double.parseDouble(datagrams.group(1)) / (end - start),
          Units.PACKETS_PER_S, null, ts));
    }
    return ParseResult.of(out);
  }

  private static Sample summary(String metric, double value, String unit, long ts) {
    return Sample.of(metric, value, unit, null, ts).asSummary();
  }
}
