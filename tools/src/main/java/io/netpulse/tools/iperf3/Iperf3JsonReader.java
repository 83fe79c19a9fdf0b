package io.netpulse.tools.iperf3;

import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.parse.Text;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.Units;
import io.netpulse.common.event.Sample;
import io.netpulse.common.json.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * iperf3 {@code -J}, the stable format: per-interval {@code intervals[].sum}, the end summary
 * {@code end.sum_sent} / {@code sum_received} (newer) or {@code end.sum} (older UDP). Times are
 * {@code start.timestamp.timesecs} plus the interval's end.
 */
final class Iperf3JsonReader {

  private Iperf3JsonReader() {}

  static ParseResult read(String json, int lineCount, ParseContext context) {
    JsonNode root;
    try {
      root = Json.mapper().readTree(json);
    } catch (JsonProcessingException e) {
      // at end of input Jackson points one past the last line
      int line = e.getLocation() == null ? 0 : Math.min(lineCount, e.getLocation().getLineNr());
      return ParseResult.error(new ParseError(line, null,
          "not valid iperf3 -J JSON: " + Text.shown(e.getOriginalMessage())));
    }
    if (root == null || !root.isObject()) {
      return ParseResult.error(new ParseError(1, null, "iperf3 -J output must be a JSON object"));
    }
    List<Sample> samples = new ArrayList<>();
    List<ParseError> errors = new ArrayList<>();
    if (root.hasNonNull("error")) {
      errors.add(new ParseError(0, "error", "iperf3 reported: " + Text.shown(root.get("error").asText())));
    }
    JsonNode timesecs = root.path("start").path("timestamp").path("timesecs");
    long base = timesecs.isNumber() ? timesecs.asLong() * 1000L : context.referenceMs();
    for (JsonNode interval : root.path("intervals")) {
      JsonNode sum = interval.path("sum");
      if (!sum.path("bits_per_second").isNumber()) {
        errors.add(new ParseError(0, "intervals.sum.bits_per_second", "missing in an interval"));
        continue;
      }
      long ts = base + Math.round(sum.path("end").asDouble() * 1000.0);
      samples.add(Sample.of("interval_bps", sum.get("bits_per_second").asDouble(), Units.BITS_PER_S, null, ts));
      double seconds = sum.path("seconds").asDouble();
      if (sum.path("packets").isNumber() && seconds > 0) {
        samples.add(Sample.of("interval_pps", sum.get("packets").asDouble() / seconds, Units.PACKETS_PER_S, null, ts));
      }
    }
    JsonNode end = root.path("end");
    JsonNode sent = end.has("sum_sent") ? end.get("sum_sent") : end.path("sum");
    JsonNode received = end.has("sum_received") ? end.get("sum_received") : null;
    if (sent.path("bits_per_second").isNumber()) {
      samples.add(summary("sender_bps", sent.get("bits_per_second").asDouble(), Units.BITS_PER_S, base, sent));
    }
    if (received != null && received.path("bits_per_second").isNumber()) {
      samples.add(summary("receiver_bps", received.get("bits_per_second").asDouble(), Units.BITS_PER_S, base, received));
    }
    // UDP loss: the receiving side's view (sum_received in newer iperf3, sum in older)
    JsonNode udp = received != null && received.has("lost_packets") ? received
        : end.path("sum").has("lost_packets") ? end.get("sum") : null;
    if (udp != null) {
      samples.add(summary("lost", udp.path("lost_packets").asDouble(), Units.COUNT, base, udp));
      samples.add(summary("datagrams", udp.path("packets").asDouble(), Units.COUNT, base, udp));
      samples.add(summary("loss_pct", udp.path("lost_percent").asDouble(), Units.PERCENT, base, udp));
      samples.add(summary("jitter_ms", udp.path("jitter_ms").asDouble(), Units.MILLISECONDS, base, udp));
    }
    if (samples.isEmpty() && errors.isEmpty()) {
      errors.add(new ParseError(0, null, "iperf3 JSON without intervals or end summary"));
    }
    String test = context.test();
    List<Sample> tagged = test == null ? samples : samples.stream().map(s -> s.withTest(test)).toList();
    return new ParseResult(tagged, errors);
  }

  private static Sample summary(String metric, double value, String unit, long base, JsonNode node) {
    long ts = base + Math.round(node.path("end").asDouble() * 1000.0);
    return Sample.of(metric, value, unit, null, ts).asSummary();
  }
}
