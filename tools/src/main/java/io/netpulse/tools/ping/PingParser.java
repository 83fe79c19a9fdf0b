package io.netpulse.tools.ping;

import io.netpulse.tools.parse.CleanLineParser;
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
 * iputils / BSD {@code ping}. Per-reply lines give {@code rtt_ms} (ts from the {@code -D} prefix
 * {@code [1796015706.877263]} when present, else the reference time); the summary gives
 * transmitted, received, loss_pct and rtt_min_ms / rtt_avg_ms / rtt_max_ms / rtt_mdev_ms, all
 * with {@code summary = true}.
 */
public final class PingParser extends CleanLineParser {

  public static final String FORMAT = "ping";

  private static final Pattern REPLY = Pattern.compile(
      "(?:\\[(\\d+(?:\\.\\d+)?)\\]\\s*)?\\d+ bytes from .*?\\btime[=<]\\s*(\\d+(?:\\.\\d+)?)\\s*(ms|us|s)\\b.*");
  private static final Pattern COUNTS = Pattern.compile(
      "(\\d+) packets transmitted, (\\d+) (?:packets )?received,.*?\\b(\\d+(?:\\.\\d+)?)% packet loss.*");
  private static final Pattern RTT = Pattern.compile(
      "(?:rtt|round-trip) min/avg/max/(?:mdev|stddev) = (\\S+)/(\\S+)/(\\S+)/(\\S+) (ms|us)");
  private static final String[] RTT_NAMES = {"rtt_min_ms", "rtt_avg_ms", "rtt_max_ms", "rtt_mdev_ms"};

  public PingParser() {
    super(FORMAT);
  }

  @Override
  protected ParseResult parseClean(String line, int lineNumber, ParseContext context) {
    Matcher m;
    if ((m = REPLY.matcher(line)).matches()) {
      var rtt = Text.number(m.group(2));
      if (rtt.isEmpty()) {
        return error(lineNumber, "time", "expected a round-trip time, got '" + Text.shown(m.group(2)) + "'");
      }
      long ts = m.group(1) == null ? context.referenceMs()
          : Math.round(Double.parseDouble(m.group(1)) * 1000.0);
      return ParseResult.of(List.of(tagged(Sample.of("rtt_ms", toMs(rtt.getAsDouble(), m.group(3)),
          Units.MILLISECONDS, null, ts), context)));
    }
    if ((m = COUNTS.matcher(line)).matches()) {
      long ts = context.referenceMs();
      return ParseResult.of(List.of(
          summary(Sample.of("transmitted", Double.parseDouble(m.group(1)), Units.COUNT, null, ts), context),
          summary(Sample.of("received", Double.parseDouble(m.group(2)), Units.COUNT, null, ts), context),
          summary(Sample.of("loss_pct", Double.parseDouble(m.group(3)), Units.PERCENT, null, ts), context)));
    }
    if ((m = RTT.matcher(line)).matches()) {
      List<Sample> samples = new ArrayList<>(4);
      for (int i = 0; i < 4; i++) {
        var v = Text.number(m.group(i + 1));
        if (v.isEmpty()) {
          return error(lineNumber, RTT_NAMES[i], "expected a number, got '" + Text.shown(m.group(i + 1)) + "'");
        }
        samples.add(summary(Sample.of(RTT_NAMES[i], toMs(v.getAsDouble(), m.group(5)), Units.MILLISECONDS,
            null, context.referenceMs()), context));
      }
      return ParseResult.of(samples);
    }
    return ParseResult.empty(); // PING banner, statistics header, timeouts, blanks
  }

  private static double toMs(double v, String unit) {
    return switch (unit) {
      case "us" -> v / 1000.0;
      case "s" -> v * 1000.0;
      default -> v;
    };
  }

  private static Sample tagged(Sample s, ParseContext context) {
    return context.test() == null ? s : s.withTest(context.test());
  }

  private static Sample summary(Sample s, ParseContext context) {
    return tagged(s.asSummary(), context);
  }

  private static ParseResult error(int line, String field, String message) {
    return ParseResult.error(new ParseError(line, field, message));
  }
}
