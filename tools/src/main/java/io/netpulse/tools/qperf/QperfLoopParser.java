package io.netpulse.tools.qperf;

import io.netpulse.common.Units;
import io.netpulse.common.catalog.Sources;
import io.netpulse.common.event.Sample;
import io.netpulse.tools.parse.CleanLineParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.parse.Text;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One qperf latency test run as a loop of 1-s tests, {@code stdbuf -oL qperf SUT -t 1 -m 64 -vvu -oo timeout:5:N:1
 * tcp_lat}: each test prints its own block ({@code tcp_lat:}, then {@code latency = 19.6 us} at the end of its second),
 * so a stream of its lines is a per-second series that a precision stop can judge. A block's {@code latency} line does
 * not name its test (the {@code tcp_lat:} line above it does, a second earlier): hence one format per test, {@code
 * qperf-tcp_lat} and {@code qperf-udp_lat}, each parsing its lines alone.
 *
 * <p>Each {@code latency} line gives {@code interim_<test>_msg_rate}, the messages a second that latency means (1 /
 * latency: qperf's latency is half a round trip, one message's time), dated when the line was received. The quantity
 * that adds up over time is the rate, not the latency: qperf's own figure over a {@code -t D} run is the run's time
 * over its messages, i.e. 1 / (the mean of the per-second rates), the harmonic mean of the per-second latencies, which
 * is how the run's value is made from these samples.
 */
public final class QperfLoopParser extends CleanLineParser {

  private static final Pattern LATENCY = Pattern.compile("latency\\s*=\\s*([0-9.,]+)\\s*(\\S+)\\s*");

  private final String metric;

  /**
   * @param test qperf's test name, {@code tcp_lat} or {@code udp_lat}: the format is {@code qperf-<test>}
   *             ({@link Sources#QPERF_TCP_LAT_LOOP}, {@link Sources#QPERF_UDP_LAT_LOOP})
   */
  public QperfLoopParser(String test) {
    super(Sources.QPERF + "-" + test);
    this.metric = interimMetric(test);
  }

  /** The interim metric of a qperf latency test's loop: {@code interim_tcp_lat_msg_rate}. */
  public static String interimMetric(String test) {
    return "interim_" + test + "_msg_rate";
  }

  @Override
  protected ParseResult parseClean(String line, int lineNumber, ParseContext context) {
    if (line.startsWith("qperf:") || line.startsWith("server:")) {
      return ParseResult.error(new ParseError(lineNumber, null, "qperf reported: " + Text.shown(line)));
    }
    Matcher m = LATENCY.matcher(line);
    if (!m.matches()) {
      return ParseResult.empty(); // the test's name, msg_size, time, timeout (the loop's variable), blanks
    }
    var value = Text.number(m.group(1));
    double us = value.isEmpty() ? Double.NaN : QperfParser.microseconds(value.getAsDouble(), m.group(2));
    if (!(us > 0)) { // NaN (an unknown unit or no number) or a latency of 0, which no rate can stand for
      return ParseResult.error(new ParseError(lineNumber, "latency",
          "cannot read a latency from '" + Text.shown(m.group(1) + " " + m.group(2)) + "'"));
    }
    Sample s = Sample.of(metric, 1e6 / us, Units.MESSAGES_PER_S, null, context.referenceMs());
    return ParseResult.of(List.of(context.test() == null ? s : s.withTest(context.test())));
  }
}
