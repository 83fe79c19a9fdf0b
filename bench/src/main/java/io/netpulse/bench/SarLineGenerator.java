package io.netpulse.bench;

import io.netpulse.common.catalog.Sources;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.json.Json;
import java.time.Instant;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * Realistic per-host sampler output, as the collector ships it: each second an {@code LC_ALL=C sar -n DEV 1}
 * interval (blank line, header, one row per interface: lo, eth0, eth1, docker0, values drifting) and, every
 * {@code ssEvery} seconds, an {@code ss -s} block (9 lines, one of them with figures). Fleet monitoring: no run.
 */
final class SarLineGenerator {

  /** A record ready to produce: a block of {@code lines} lines of one source, as the collector writes it. */
  record Line(String host, byte[] value, int lines) {}

  /** One line of one source. */
  record SourceLine(String source, String text) {}

  static final String[] IFACES = {"lo", "eth0", "eth1", "docker0"};
  private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm:ss");
  private static final String HEADER =
      "        IFACE   rxpck/s   txpck/s    rxkB/s    txkB/s   rxcmp/s   txcmp/s  rxmcst/s   %ifutil";

  private final Random random;
  /** per host and iface: a slowly drifting packet rate, so values look like a live link */
  private final double[][] pps;

  SarLineGenerator(int hosts, long seed) {
    random = new Random(seed);
    pps = new double[hosts][IFACES.length];
    for (int h = 0; h < hosts; h++) {
      pps[h][1] = 50_000 + random.nextDouble() * 50_000;
      pps[h][2] = 5_000 + random.nextDouble() * 5_000;
      pps[h][3] = random.nextDouble() * 500;
    }
  }

  /** One host's lines for the second at {@code secondMs}: sar always, ss -s when {@code withSs}. */
  List<SourceLine> second(int host, long secondMs, boolean withSs) {
    String clock = LocalTime.ofInstant(Instant.ofEpochMilli(secondMs), ZoneOffset.UTC).format(CLOCK);
    List<SourceLine> out = new ArrayList<>(16);
    out.add(new SourceLine(Sources.SAR_DEV, ""));
    out.add(new SourceLine(Sources.SAR_DEV, clock + HEADER));
    for (int i = 0; i < IFACES.length; i++) {
      double rx = pps[host][i] = Math.max(0, pps[host][i] * (0.98 + random.nextDouble() * 0.04));
      double tx = rx * 0.1;
      double rxKb = rx * 1.46; // ~1500-byte frames
      double txKb = tx * 0.07;
      double util = Math.min(100, rxKb * 8192 / 1e10 * 100);
      out.add(new SourceLine(Sources.SAR_DEV, String.format(Locale.ROOT,
          "%s %12s %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f %9.2f", clock, IFACES[i], rx, tx, rxKb, txKb, 0.0, 0.0,
          i == 1 ? 0.5 : 0.0, i == 0 ? 0.0 : util)));
    }
    if (withSs) {
      int estab = 200 + random.nextInt(50);
      int closed = 20 + random.nextInt(10);
      out.add(new SourceLine("ss-summary", "Total: " + (estab + closed + 150)));
      out.add(new SourceLine("ss-summary", String.format(Locale.ROOT,
          "TCP:   %d (estab %d, closed %d, orphaned 0, timewait %d)", estab + closed + 4, estab, closed, closed - 3)));
      out.add(new SourceLine("ss-summary", ""));
      out.add(new SourceLine("ss-summary", "Transport Total     IP        IPv6"));
      out.add(new SourceLine("ss-summary", "RAW\t  1         0         1"));
      out.add(new SourceLine("ss-summary", "UDP\t  6         4         2"));
      out.add(new SourceLine("ss-summary", "TCP\t  " + (estab + 4) + "         " + (estab + 2) + "         2"));
      out.add(new SourceLine("ss-summary", "INET\t  " + (estab + 11) + "         " + (estab + 6) + "         5"));
      out.add(new SourceLine("ss-summary", "FRAG\t  0         0         0"));
    }
    return out;
  }

  /**
   * At least {@code lines} lines of {@code hosts} hosts, second after second from {@code startMs}, keyed by host, as
   * the collector ships them: one LineBlock per host, source and second (an ss -s block every 10 s per host).
   */
  static List<Line> generate(int lines, int hosts, long startMs) {
    SarLineGenerator gen = new SarLineGenerator(hosts, 42);
    List<Line> out = new ArrayList<>(lines / 4 + 2 * hosts);
    long[] seq = new long[hosts * 2];
    int total = 0;
    for (long second = 0; total < lines; second++) {
      long ts = startMs + second * 1000;
      for (int h = 0; h < hosts && total < lines; h++) {
        String name = "bench-host-" + h;
        java.util.Map<String, List<LineEvent>> bySource = new java.util.LinkedHashMap<>();
        for (SourceLine l : gen.second(h, ts, (second + h) % 10 == 0)) {
          int stream = h * 2 + (l.source().equals(Sources.SAR_DEV) ? 0 : 1);
          bySource.computeIfAbsent(l.source(), k -> new ArrayList<>())
              .add(LineEvent.of(name, l.source(), null, seq[stream]++, ts + 300, l.text()));
        }
        for (List<LineEvent> block : bySource.values()) {
          out.add(new Line(name, Json.bytes(io.netpulse.common.event.LineBlock.of(block)), block.size()));
          total += block.size();
        }
      }
    }
    return out;
  }

  /** The lines in {@code records}. */
  static int lines(List<Line> records) {
    return records.stream().mapToInt(Line::lines).sum();
  }
}
