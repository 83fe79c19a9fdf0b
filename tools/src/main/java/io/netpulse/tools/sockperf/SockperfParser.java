package io.netpulse.tools.sockperf;

import io.netpulse.tools.parse.CleanLineParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.parse.Text;

import io.netpulse.common.Units;
import io.netpulse.common.event.Sample;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * sockperf ping-pong / under-load ({@code avg-latency=}, older {@code avg-lat=}, and {@code avg-rtt=}
 * of {@code --full-rtt}; percentile and MIN/MAX lines, in usec) and throughput ({@code Message Rate},
 * {@code BandWidth}). ANSI colour codes are stripped first. All values are the run's summary.
 *
 * <p>{@code avg-rtt} is a full round trip while sockperf's latency is half of one (its
 * {@code Summary: Latency is}), so it gives {@code avg_rtt_us} and {@code avg_latency_us} = rtt / 2.
 */
public final class SockperfParser extends CleanLineParser {

  public static final String FORMAT = "sockperf";

  private static final Pattern AVG = Pattern.compile(".*\\bavg-(lat|latency|rtt)\\s*=\\s*(\\d+(?:\\.\\d+)?).*");
  private static final Pattern PERCENTILE = Pattern.compile(".*--->\\s*percentile\\s+(\\d+(?:\\.\\d+)?)\\s*=\\s*(\\d+(?:\\.\\d+)?).*");
  private static final Pattern MIN_MAX = Pattern.compile(".*--->\\s*<(MIN|MAX)>\\s*observation\\s*=\\s*(\\d+(?:\\.\\d+)?).*");
  private static final Pattern MSG_RATE = Pattern.compile(".*Summary: Message Rate is\\s+(\\d+(?:\\.\\d+)?)\\s*\\[msg/sec\\].*");
  private static final Pattern BANDWIDTH = Pattern.compile(
      ".*Summary: BandWidth is\\s+\\d+(?:\\.\\d+)?\\s*\\S+\\s*\\((\\d+(?:\\.\\d+)?)\\s*([KMGT]?bps)\\).*");

  public SockperfParser() {
    super(FORMAT);
  }

  @Override
  protected ParseResult parseClean(String line, int lineNumber, ParseContext context) {
    if (!line.startsWith("sockperf")) {
      return ParseResult.empty();
    }
    if (line.contains("ERROR")) {
      return ParseResult.error(new ParseError(lineNumber, null, "sockperf reported: " + Text.shown(line)));
    }
    long ts = context.referenceMs();
    Matcher m;
    if ((m = AVG.matcher(line)).matches()) {
      double v = Double.parseDouble(checked(m.group(2)));
      if (m.group(1).equals("rtt")) {
        return of(context, lineNumber, sample("avg_rtt_us", v, Units.MICROSECONDS, ts),
            sample("avg_latency_us", v / 2, Units.MICROSECONDS, ts));
      }
      return of(context, lineNumber, sample("avg_latency_us", v, Units.MICROSECONDS, ts));
    }
    if ((m = PERCENTILE.matcher(line)).matches()) {
      return of(context, lineNumber, sample(percentileMetric(m.group(1)), Double.parseDouble(checked(m.group(2))),
          Units.MICROSECONDS, ts));
    }
    if ((m = MIN_MAX.matcher(line)).matches()) {
      return of(context, lineNumber, sample(m.group(1).toLowerCase(Locale.ROOT) + "_us", Double.parseDouble(checked(m.group(2))),
          Units.MICROSECONDS, ts));
    }
    if ((m = MSG_RATE.matcher(line)).matches()) {
      return of(context, lineNumber, sample("msg_rate", Double.parseDouble(checked(m.group(1))), Units.MESSAGES_PER_S, ts));
    }
    if ((m = BANDWIDTH.matcher(line)).matches()) {
      double bits = Double.parseDouble(checked(m.group(1))) * Text.bitRateFactor(m.group(2));
      return of(context, lineNumber, sample("bandwidth_bps", bits, Units.BITS_PER_S, ts));
    }
    return ParseResult.empty();
  }

  /** {@code 99.900} → p999_us, {@code 50.000} → p50_us (the percentile names docs/parsing.md's metrics use). */
  static String percentileMetric(String percentile) {
    String p = percentile.contains(".") ? percentile.replaceAll("0+$", "").replaceAll("\\.$", "") : percentile;
    return "p" + p.replace(".", "") + "_us";
  }

  /** \\d+(?:\\.\\d+)? may still be "1.2.3": the caller's parseDouble must not throw. */
  private static String checked(String number) {
    return Text.number(number).isPresent() ? number : "NaN";
  }

  private static Sample sample(String metric, double value, String unit, long ts) {
    return Sample.of(metric, value, unit, null, ts).asSummary();
  }

  private static ParseResult of(ParseContext context, int lineNumber, Sample... samples) {
    for (Sample s : samples) {
      if (Double.isNaN(s.value())) {
        return ParseResult.error(new ParseError(lineNumber, s.metric(), "not a number"));
      }
    }
    List<Sample> list = List.of(samples);
    return ParseResult.of(context.test() == null ? list : list.stream().map(s -> s.withTest(context.test())).toList());
  }
}
