package io.netpulse.tools.ss;

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
 * {@code ss -s}: the {@code TCP:   28 (estab 0, closed 28, orphaned 0, timewait 22)} line gives
 * tcp_total, tcp_estab, tcp_closed, tcp_orphaned, tcp_timewait (connections), stamped with the
 * context's reference time (ss prints no time). Older iproute2 prints {@code timewait 22/0}.
 */
public final class SsSummaryParser extends CleanLineParser {

  public static final String FORMAT = "ss-summary";

  private static final Pattern TCP_LINE = Pattern.compile("TCP:\\s+(\\S+)\\s*\\(([^)]*)\\).*");
  private static final Pattern FIELD = Pattern.compile("(estab|closed|orphaned|timewait)\\s+(\\d+)(?:/\\d+)?");
  private static final String[] FIELDS = {"estab", "closed", "orphaned", "timewait"};

  public SsSummaryParser() {
    super(FORMAT);
  }

  @Override
  protected ParseResult parseClean(String line, int lineNumber, ParseContext context) {
    if (!line.startsWith("TCP:")) {
      return ParseResult.empty(); // Total:, the transport table, blanks
    }
    Matcher m = TCP_LINE.matcher(line);
    if (!m.matches()) {
      return ParseResult.error(new ParseError(lineNumber, null,
          "expected 'TCP:   N (estab N, closed N, orphaned N, timewait N)', got '" + Text.shown(line) + "'"));
    }
    var total = Text.number(m.group(1));
    if (total.isEmpty()) {
      return ParseResult.error(new ParseError(lineNumber, "TCP", "expected a count, got '" + Text.shown(m.group(1)) + "'"));
    }
    long ts = context.referenceMs();
    List<Sample> samples = new ArrayList<>(5);
    samples.add(sample("tcp_total", total.getAsDouble(), ts, context));
    Matcher f = FIELD.matcher(m.group(2));
    java.util.Map<String, Double> found = new java.util.HashMap<>();
    while (f.find()) {
      found.put(f.group(1), Double.parseDouble(f.group(2)));
    }
    for (String name : FIELDS) {
      if (!found.containsKey(name)) {
        return ParseResult.error(new ParseError(lineNumber, name, "missing in '" + Text.shown(line) + "'"));
      }
      samples.add(sample("tcp_" + name, found.get(name), ts, context));
    }
    return ParseResult.of(samples);
  }

  private static Sample sample(String metric, double value, long ts, ParseContext context) {
    Sample s = Sample.of(metric, value, Units.CONNECTIONS, null, ts);
    return context.test() == null ? s : s.withTest(context.test());
  }
}
