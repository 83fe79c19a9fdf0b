package io.netpulse.launcher.cli.bench;

import io.netpulse.common.event.LineEvent;
import io.netpulse.common.json.Json;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Realistic {@code LC_ALL=C sar -n DEV 1} data rows (eth0 and lo, one of each per host per second)
 * as the collector ships them: LineEvent JSON keyed by host, fleet monitoring (no run).
 */
final class SarLineGenerator {

  /** A record ready to produce. */
  record Line(String host, byte[] value) {}

  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");

  private SarLineGenerator() {}

  static List<Line> generate(int lines, int hosts, long startMs) {
    Random random = new Random(42);
    List<Line> out = new ArrayList<>(lines);
    long[] seq = new long[hosts];
    for (int i = 0; i < lines; i++) {
      int host = (i / 2) % hosts;
      long second = (long) i / (2L * hosts);
      long ts = startMs + second * 1000;
      String clock = LocalTime.ofInstant(java.time.Instant.ofEpochMilli(ts), ZoneOffset.UTC).format(CLOCK);
      String row = i % 2 == 0
          ? String.format(Locale.ROOT, "%s        eth0  %8.2f  %8.2f  %8.2f %9.2f      0.00      0.00      0.00     %5.2f",
              clock, 80_000 + random.nextDouble() * 1000, 8_000 + random.nextDouble() * 100,
              117_000 + random.nextDouble() * 1000, 500 + random.nextDouble() * 10, 9.6)
          : String.format(Locale.ROOT, "%s           lo      0.00      0.00      0.00      0.00      0.00      0.00      0.00      0.00",
              clock);
      String name = "bench-host-" + host;
      out.add(new Line(name, Json.bytes(LineEvent.of(name, "sar-dev", null, seq[host]++, ts + 300, row))));
    }
    return out;
  }
}
