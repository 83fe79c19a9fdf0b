package io.netpulse.tools.parse;

import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * What a parser needs to know that the output itself may not say.
 *
 * @param zone        time zone the tool printed its clock times in (the collector runs samplers
 *                    with TZ=UTC, so UTC there; the local zone for files given to {@code parse})
 * @param referenceMs epoch ms near the time the output was printed (the collector's receive time
 *                    for a streamed line), used to put a date on clock-only times such as sar's
 *                    {@code 12:00:01}; 0 when unknown (the parser then needs a date in the output)
 * @param test        test type when the output does not name it (netperf {@code -P 0}), else null
 */
public record ParseContext(ZoneId zone, long referenceMs, String test) {

  public static ParseContext streamed(long receivedAtMs) {
    return new ParseContext(ZoneOffset.UTC, receivedAtMs, null);
  }

  public ParseContext withTest(String newTest) {
    return new ParseContext(zone, referenceMs, newTest);
  }
}
