package io.netpulse.tools.netperf;

import io.netpulse.tools.parse.CleanLineParser;
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
 * netperf classic output: TCP_STREAM (throughput_bps), UDP_STREAM (send/recv msgs, pps, bps,
 * elapsed_s), TCP_RR / TCP_CRR / UDP_RR (trans_per_s), and demo-mode {@code Interim result} lines
 * (interim_bps, interim_trans_per_s, ts from the line's own epoch time).
 *
 * <p>The test type comes from the banner ({@code MIGRATED TCP STREAM TEST ...} or the pre-2.5
 * {@code TCP STREAM TEST ...}); without one ({@code -P 0}) from {@code context.test()}, else from
 * the column headers where they tell (seed 003 prints the UDP_STREAM table alone). As a
 * {@link LineParser} only the interim lines parse alone: result rows need the banner above them.
 */
public final class NetperfParser extends CleanLineParser {

  public static final String FORMAT = "netperf";

  private static final Pattern INTERIM = Pattern.compile(
      "Interim result:\\s+(\\S+)\\s+(\\S+)\\s+over\\s+(\\S+)\\s+seconds\\s+ending\\s+at\\s+(\\d+(?:\\.\\d+)?)");
  private static final Pattern BANNER = Pattern.compile(
      "(?:MIGRATED\\s+)?(TCP|UDP|SCTP)\\s+(STREAM|MAERTS|SENDFILE|REQUEST/RESPONSE|Connect/Request/Response)\\s+TEST\\b.*",
      Pattern.CASE_INSENSITIVE);
  private static final String RR_HINT = "RR";
  private static final Pattern BITS_UNIT = Pattern.compile("10\\^(\\d{1,2})bits/s");

  public NetperfParser() {
    super(FORMAT);
  }

  @Override
  protected ParseResult parseClean(String line, int lineNumber, ParseContext context) {
    if (!line.startsWith("Interim result:")) {
      return ParseResult.empty();
    }
    Matcher m = INTERIM.matcher(line);
    if (!m.lookingAt()) {
      return error(lineNumber, null, "expected 'Interim result: VALUE UNIT over S seconds ending at EPOCH', got '"
          + Text.shown(line) + "'");
    }
    var value = Text.number(m.group(1));
    var epoch = Text.number(m.group(4));
    if (value.isEmpty() || epoch.isEmpty()) {
      return error(lineNumber, "Interim result", "not a number in '" + Text.shown(line) + "'");
    }
    long ts = Math.round(epoch.getAsDouble() * 1000.0);
    String unit = m.group(2);
    Sample s;
    Matcher bits = BITS_UNIT.matcher(unit);
    if (bits.matches()) {
      s = Sample.of("interim_bps", value.getAsDouble() * Math.pow(10, Integer.parseInt(bits.group(1))),
          Units.BITS_PER_S, null, ts);
    } else if (unit.startsWith("Trans/s")) {
      s = Sample.of("interim_trans_per_s", value.getAsDouble(), Units.TRANSACTIONS_PER_S, null, ts);
    } else {
      return error(lineNumber, "unit", "unknown interim unit '" + Text.shown(unit) + "'");
    }
    return ParseResult.of(List.of(context.test() == null ? s : s.withTest(context.test())));
  }

  @Override
  public ParseResult parse(List<String> lines, ParseContext context) {
    List<Sample> samples = new ArrayList<>();
    List<ParseError> errors = new ArrayList<>();
    String bannerTest = null;
    String headerHint = null;
    double bitsFactor = 1e6; // netperf's default -f m: 10^6 bits/s
    for (Text.NumberedLine numbered : Text.readable(lines, errors)) {
      int n = numbered.number();
      String line = numbered.text();
      if (line.isEmpty()) {
        continue;
      }
      Matcher banner = BANNER.matcher(line);
      if (banner.matches()) {
        bannerTest = testOf(banner.group(1), banner.group(2));
        headerHint = null;
        continue;
      }
      if (line.startsWith("Interim result:")) {
        ParseResult r = parseLine(line, n, bannerTest == null ? context : context.withTest(bannerTest));
        samples.addAll(r.samples());
        errors.addAll(r.errors());
        continue;
      }
      String[] tokens = line.split("\\s+");
      double[] numbers = numbers(tokens);
      if (numbers == null) {
        Matcher bits = BITS_UNIT.matcher(line);
        if (bits.find()) {
          bitsFactor = Math.pow(10, Math.min(12, Integer.parseInt(bits.group(1))));
        }
        headerHint = hint(line, headerHint);
        continue; // header text, netperf's own messages
      }
      String test = bannerTest != null ? bannerTest : context.test() != null ? context.test() : headerHint;
      if (test == null) {
        errors.add(new ParseError(n, null, "netperf result row but the test type is unknown (no banner: "
            + "give it with --test, e.g. --test TCP_RR)"));
        continue;
      }
      ParseResult r = resultRow(test.toUpperCase(Locale.ROOT), numbers, bitsFactor, n, context);
      String label = test.equals(RR_HINT) ? null : test; // the table alone does not tell TCP_RR from UDP_RR
      samples.addAll(r.samples().stream().map(s -> s.withTest(label)).toList());
      errors.addAll(r.errors());
    }
    return new ParseResult(samples, errors);
  }

  private static ParseResult resultRow(String test, double[] v, double bitsFactor, int line, ParseContext context) {
    long ts = context.referenceMs();
    if (test.endsWith("RR")) {
      if (v.length == 2) {
        return ParseResult.empty(); // the remote socket sizes
      }
      if (v.length != 6) {
        return error(line, null, test + " result row needs 6 numbers (sockets, sizes, elapsed, rate), got " + v.length);
      }
      return ParseResult.of(List.of(summary("trans_per_s", v[5], Units.TRANSACTIONS_PER_S, ts)));
    }
    if (test.equals("UDP_STREAM")) {
      if (v.length == 6) { // socket, message size, elapsed, okay, errors, throughput: the sender
        return ParseResult.of(List.of(
            summary("send_msgs", v[3], Units.COUNT, ts),
            summary("elapsed_s", v[2], Units.SECONDS, ts),
            summary("send_pps", v[2] > 0 ? v[3] / v[2] : 0, Units.PACKETS_PER_S, ts),
            summary("send_bps", v[5] * bitsFactor, Units.BITS_PER_S, ts)));
      }
      if (v.length == 4) { // socket, elapsed, okay, throughput: the receiver
        return ParseResult.of(List.of(
            summary("recv_msgs", v[2], Units.COUNT, ts),
            summary("recv_pps", v[1] > 0 ? v[2] / v[1] : 0, Units.PACKETS_PER_S, ts),
            summary("recv_bps", v[3] * bitsFactor, Units.BITS_PER_S, ts)));
      }
      return error(line, null, "UDP_STREAM row needs 6 numbers (send) or 4 (receive), got " + v.length);
    }
    if (test.endsWith("STREAM") || test.endsWith("MAERTS") || test.endsWith("SENDFILE")) {
      if (v.length != 5) {
        return error(line, null, test + " result row needs 5 numbers (sockets, message size, elapsed, throughput), got "
            + v.length);
      }
      return ParseResult.of(List.of(summary("throughput_bps", v[4] * bitsFactor, Units.BITS_PER_S, ts)));
    }
    return error(line, "test", "unknown netperf test '" + Text.shown(test)
        + "' (known: TCP_STREAM, UDP_STREAM, TCP_RR, TCP_CRR, UDP_RR)");
  }

  private static String testOf(String protocol, String kind) {
    String p = protocol.toUpperCase(Locale.ROOT);
    return switch (kind.toUpperCase(Locale.ROOT)) {
      case "REQUEST/RESPONSE" -> p + "_RR";
      case "CONNECT/REQUEST/RESPONSE" -> p + "_CRR";
      default -> p + "_" + kind.toUpperCase(Locale.ROOT);
    };
  }

  /** What the column headers alone say about the test, for banner-less tables. */
  private static String hint(String line, String previous) {
    if (line.contains("Okay") && line.contains("Errors")) {
      return "UDP_STREAM";
    }
    if (line.contains("Throughput") && previous == null) {
      return "TCP_STREAM";
    }
    if (line.contains("Trans.") && previous == null) {
      return RR_HINT; // TCP_RR, TCP_CRR and UDP_RR print the same table; the metric is the same
    }
    return previous;
  }

  /** All tokens as numbers, or null if any is not one. */
  private static double[] numbers(String[] tokens) {
    if (tokens.length > 12) {
      return null;
    }
    double[] v = new double[tokens.length];
    for (int i = 0; i < tokens.length; i++) {
      var d = Text.number(tokens[i]);
      if (d.isEmpty()) {
        return null;
      }
      v[i] = d.getAsDouble();
    }
    return v;
  }

  private static Sample summary(String metric, double value, String unit, long ts) {
    return Sample.of(metric, value, unit, null, ts).asSummary();
  }

  private static ParseResult error(int line, String field, String message) {
    return ParseResult.error(new ParseError(line, field, message));
  }
}
