package io.netpulse.tools.qperf;

import io.netpulse.tools.parse.OutputParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.parse.Text;

import io.netpulse.common.Units;
import io.netpulse.common.event.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * qperf, plain or {@code -vvu}: a {@code tcp_lat:} line names the test, then
 * {@code latency = 11.7 us} gives {@code tcp_lat_us} (ns/us/ms/sec converted to us),
 * {@code bw = 885 MB/sec} gives {@code tcp_bw_bps} (qperf's MB is 10^6 bytes; its binary sizes say
 * KiB), udp_bw's {@code recv_bw} / {@code send_bw} give {@code udp_bw_bps} / {@code udp_bw_send_bps},
 * {@code msg_rate} gives {@code <test>_msg_rate}. All are the tool's summary of the run.
 */
public final class QperfParser implements OutputParser {

  public static final String FORMAT = "qperf";

  private static final Pattern TEST = Pattern.compile("([A-Za-z][A-Za-z0-9_]*):");
  private static final Pattern FIELD = Pattern.compile("([a-z_]+)\\s*=\\s*([0-9.,]+)\\s*(\\S+)?.*");

  @Override
  public String format() {
    return FORMAT;
  }

  @Override
  public ParseResult parse(List<String> lines, ParseContext context) {
    List<Sample> samples = new ArrayList<>();
    List<ParseError> errors = new ArrayList<>();
    String test = null;
    for (Text.NumberedLine numbered : Text.readable(lines, errors)) {
      int n = numbered.number();
      String line = numbered.text();
      if (line.isEmpty()) {
        continue;
      }
      if (line.startsWith("qperf:") || line.startsWith("server:")) {
        errors.add(new ParseError(n, null, "qperf reported: " + Text.shown(line)));
        continue;
      }
      Matcher t = TEST.matcher(line);
      if (t.matches()) {
        test = t.group(1);
        continue;
      }
      Matcher f = FIELD.matcher(line);
      if (!f.matches()) {
        continue;
      }
      String name = f.group(1);
      String metric = metricOf(test, name);
      if (metric == null) {
        continue; // msg_size, time, timeout, cpu figures
      }
      if (test == null) {
        errors.add(new ParseError(n, name, "value before any 'test_name:' line"));
        continue;
      }
      var value = Text.number(f.group(2));
      String unit = f.group(3) == null ? "" : f.group(3);
      double converted = value.isEmpty() ? Double.NaN : convert(name, value.getAsDouble(), unit);
      if (Double.isNaN(converted)) {
        errors.add(new ParseError(n, name, "cannot read '" + Text.shown(f.group(2) + " " + unit) + "'"));
        continue;
      }
      Sample s = Sample.of(metric, converted, unitOf(name), null, context.referenceMs()).asSummary();
      samples.add(s.withTest(context.test() != null ? context.test() : test));
    }
    return new ParseResult(samples, errors);
  }

  private static String metricOf(String test, String field) {
    String t = test == null ? "" : test;
    return switch (field) {
      case "latency" -> t + "_us";
      case "bw", "recv_bw" -> t + "_bps";
      case "send_bw" -> t + "_send_bps";
      case "msg_rate" -> t + "_msg_rate";
      default -> null;
    };
  }

  private static String unitOf(String field) {
    return switch (field) {
      case "latency" -> Units.MICROSECONDS;
      case "msg_rate" -> Units.MESSAGES_PER_S;
      default -> Units.BITS_PER_S;
    };
  }

  /** A latency in qperf's unit (ns, us, ms, sec) in microseconds; NaN for an unknown unit. */
  static double microseconds(double v, String unit) {
    return switch (unit.toLowerCase(Locale.ROOT)) {
      case "ns" -> v / 1000.0;
      case "us" -> v;
      case "ms" -> v * 1000.0;
      case "sec", "s" -> v * 1e6;
      default -> Double.NaN;
    };
  }

  /** To us for latency, bit/s for bandwidth, messages/s for rates; NaN for an unknown unit. */
  private static double convert(String field, double v, String unit) {
    String u = unit.toLowerCase(Locale.ROOT);
    if (field.equals("latency")) {
      return microseconds(v, unit);
    }
    if (!u.endsWith("/sec")) {
      return Double.NaN;
    }
    String q = unit.substring(0, unit.length() - 4);
    if (field.equals("msg_rate")) {
      return q.isEmpty() ? v : q.length() == 1 ? v * Text.siPrefix(q.charAt(0)) : Double.NaN;
    }
    if (q.equals("bytes")) {
      return v * 8;
    }
    if (q.length() == 2 && q.charAt(1) == 'B') {
      return v * 8 * Text.siPrefix(q.charAt(0));
    }
    if (q.length() == 2 && q.charAt(1) == 'b') {
      return v * Text.siPrefix(q.charAt(0)); // --use_bits_per_sec
    }
    return Double.NaN;
  }
}
