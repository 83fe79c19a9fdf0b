package io.netpulse.launcher.services;

import io.netpulse.common.catalog.Sources;
import io.netpulse.common.event.LineEvent;
import io.netpulse.common.event.LineRecords;
import io.netpulse.common.event.Sample;
import io.netpulse.tools.parse.LineParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.Parsers;
import java.io.IOException;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * What {@code netpulse.metrics} and {@code netpulse.windows} must say, computed from {@code netpulse.lines} alone,
 * independently of the processor's code except for the parsers (a parser bug is not what this test is about): lines
 * are read as the processor's ParseTopology reads them ({@code Parsers.lineParser(source)},
 * {@code ParseContext.streamed(line.ts())}, unreadable records and lines without host/source/line skipped). Per
 * host/iface/metric: each second's value as its row on {@code metrics} gives it (a {@code 1s} key: the sample, count
 * 1), and 10-s tumbling windows as the windows processor documents them, in the samples' own time (a {@code 10s} key
 * starting at the time floored to 10 s), summary rows and non-finite values left out; a host's stream time is the
 * largest time of its own samples so far (hosts share partitions, but each has its own clock), and a window takes a
 * sample only while its host's stream time is below its end plus the 5-s grace. (A host silent for 5 minutes has its
 * windows closed by the processor's wall clock; the hosts here never are.)
 */
final class ReferenceRates {

  /** The windows' documented grace: disorder a window still accepts. */
  static final long GRACE_MS = 5_000;
  private static final long SECOND_MS = 1_000;
  private static final long TEN_MS = 10_000;
  private static final String SAR_DEV = Sources.SAR_DEV;
  private static final String PROC_NET_DEV = "proc-net-dev";

  /**
   * @param windows every window with at least one sample, and its figures
   * @param sarSeconds the 1-s windows that have samples of sar lines ("seconds with sar lines")
   * @param streamTimeByHost per host, its stream time once every line was read
   * @param firstSampleByHost per host, its earliest sample time
   * @param unsupported lines of a stateful source (proc-net-dev) this reference does not compute
   */
  record Result(Map<RateKey, RateValue> windows, Set<RateKey> sarSeconds, Map<String, Long> streamTimeByHost,
      Map<String, Long> firstSampleByHost, long lines, long samples, long lateSamples, long unsupported) {

    /**
     * Whether the reference knows {@code key}'s final figures: the window lies after the host's first sample and its
     * end plus the grace is behind the host's stream time (nothing may still change it), and it starts at or after
     * {@code sinceMs}.
     */
    boolean complete(RateKey key, long sinceMs) {
      Long first = firstSampleByHost.get(key.host());
      Long streamTime = streamTimeByHost.get(key.host());
      return first != null && key.startMs() >= sinceMs && key.startMs() >= first - Math.floorMod(first, SECOND_MS)
          && key.endMs() + GRACE_MS <= streamTime;
    }
  }

  private ReferenceRates() {}

  /** @param partitions the records of each partition of {@code lines}, each list in offset order */
  static Result compute(Collection<List<ConsumerRecord<String, byte[]>>> partitions) {
    Map<RateKey, Acc> windows = new HashMap<>();
    Set<RateKey> sarSeconds = new HashSet<>();
    Map<String, Long> streamTimeByHost = new HashMap<>();
    Map<String, Long> firstSampleByHost = new HashMap<>();
    long lines = 0;
    long samples = 0;
    long late = 0;
    long unsupported = 0;
    for (List<ConsumerRecord<String, byte[]>> partition : partitions) {
      for (ConsumerRecord<String, byte[]> record : partition) {
        for (LineEvent line : linesOf(record.value())) {
        lines++;
        if (line == null) {
          continue;
        }
        Optional<LineParser> parser = Parsers.lineParser(line.source());
        if (parser.isEmpty()) {
          unsupported += PROC_NET_DEV.equals(line.source()) ? 1 : 0;
          continue;
        }
        for (Sample parsed : parser.get().parseLine(line.line(), 0, ParseContext.streamed(line.ts())).samples()) {
          Sample s = parsed.withOrigin(line.host(), line.run(), line.source());
          if (s.summary() || !Double.isFinite(s.value())) {
            continue;
          }
          samples++;
          long ts = s.ts() > 0 ? s.ts() : record.timestamp();
          long streamTime = streamTimeByHost.merge(s.host(), ts, Math::max);
          firstSampleByHost.merge(s.host(), ts, Math::min);
          // a row's value on metrics: the second's own, never dropped (the latest if a second came twice)
          RateKey second = new RateKey(s.host(), s.iface(), s.metric(), "1s", ts - Math.floorMod(ts, SECOND_MS));
          Acc one = new Acc(s.unit());
          one.add(s.value());
          windows.put(second, one);
          if (SAR_DEV.equals(s.source())) {
            sarSeconds.add(second);
          }
          long start = ts - Math.floorMod(ts, TEN_MS);
          if (start + TEN_MS <= streamTime - GRACE_MS) {
            late++; // its 10-s window has closed
            continue;
          }
          windows.computeIfAbsent(new RateKey(s.host(), s.iface(), s.metric(), "10s", start), k -> new Acc(s.unit()))
              .add(s.value());
        }
        }
      }
    }
    Map<RateKey, RateValue> values = new HashMap<>();
    windows.forEach((k, acc) -> values.put(k, acc.value()));
    return new Result(values, sarSeconds, streamTimeByHost, firstSampleByHost, lines, samples, late, unsupported);
  }

  /**
   * The lines in a record's value (a block's, or the one of an older one-line record); null for a line the processor
   * dead-letters instead of parsing, one null for a record it cannot read at all.
   */
  private static List<LineEvent> linesOf(byte[] value) {
    List<LineEvent> lines;
    try {
      lines = LineRecords.read(value);
    } catch (IOException | RuntimeException e) {
      return java.util.Collections.singletonList(null);
    }
    return lines.stream().map(line -> line == null || line.line() == null || line.source() == null
        || line.host() == null ? null : line).toList();
  }

  /** Sum, min, max and count of one window's samples, in arrival order. */
  private static final class Acc {
    private final String unit;
    private double sum;
    private double min = Double.POSITIVE_INFINITY;
    private double max = Double.NEGATIVE_INFINITY;
    private long count;

    Acc(String unit) {
      this.unit = unit;
    }

    void add(double v) {
      sum += v;
      min = Math.min(min, v);
      max = Math.max(max, v);
      count++;
    }

    RateValue value() {
      return new RateValue(sum / count, min, max, count, unit);
    }
  }
}
