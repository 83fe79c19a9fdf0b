package io.netpulse.collector;

import io.netpulse.common.event.LineEvent;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns the lines of one source into events: numbers them (the sequence goes on across sampler restarts and
 * reconnections, and with a {@link SequenceStore} across collector restarts, so a gap in it within one epoch on the
 * topic means lost lines), stamps the read time and counts them. The first line after a collector restart reports
 * the time since the previous start's last line: logged, counted and stated in the event's {@code gapMs}.
 */
public final class LineEmitter {

  private static final Logger LOG = LoggerFactory.getLogger(LineEmitter.class);

  private final String host;
  private final String source;
  private final String run;
  private final String instance;
  private final LineSink sink;
  private final CollectorMetrics.Counters counters;
  private final SourceSequence sequence;
  private final AtomicLong emitted = new AtomicLong();

  /** Numbered from 0 in memory. */
  public LineEmitter(String host, String source, String run, LineSink sink, CollectorMetrics metrics) {
    this(host, source, run, (String) null, sink, metrics);
  }

  /** @param instance the tool instance within the run, for one of several of the same tool (netperf fan-out) */
  public LineEmitter(String host, String source, String run, String instance, LineSink sink, CollectorMetrics metrics) {
    this(host, source, run, instance, SourceSequence.fromZero(host, source), sink, metrics);
  }

  /** Numbered by {@code sequences}: going on from the previous collector start's. */
  public LineEmitter(String host, String source, String run, SequenceStore sequences, LineSink sink,
      CollectorMetrics metrics) {
    this(host, source, run, null, sequences == null ? SourceSequence.fromZero(host, source)
        : sequences.source(host, source), sink, metrics);
  }

  private LineEmitter(String host, String source, String run, String instance, SourceSequence sequence,
      LineSink sink, CollectorMetrics metrics) {
    this.host = host;
    this.source = source;
    this.run = run;
    this.instance = instance;
    this.sequence = sequence;
    this.sink = sink;
    this.counters = metrics.of(host, source);
  }

  public void emit(String line) {
    emit(line, null);
  }

  /** The first line after {@code gapMs} without lines (an SSH reconnection, logged and counted by the caller). */
  public void emitAfterGap(String line, long gapMs) {
    emit(line, gapMs);
  }

  private void emit(String line, Long gapMs) {
    counters.read();
    long now = System.currentTimeMillis();
    long seq = sequence.next(now);
    SourceSequence.PreviousStart before = sequence.takePreviousStart();
    if (before != null) {
      long gap = Math.max(0, now - before.lastReadMs()); // a clock stepped back gives no negative gap
      counters.restartGap(gap);
      LOG.warn("{}/{}: gap of {} ms without lines (collector restart; last line recorded before: seq {} in epoch {});"
          + " seq goes on at {} in epoch {}", host, source, gap, before.lastSeq(), before.epoch(), seq,
          sequence.epoch());
      gapMs = gapMs == null ? gap : Math.max(gapMs, gap);
    }
    emitted.incrementAndGet();
    sink.send(new LineEvent(LineEvent.SCHEMA, host, source, run, seq, now, line, instance, sequence.epoch(), gapMs));
  }

  /** Lines emitted so far by this emitter. */
  public long emitted() {
    return emitted.get();
  }

  /** The number the next line gets. */
  public long nextSeq() {
    return sequence.peekNext();
  }

  /** The number of the last line, -1 before the first. */
  public long lastSeq() {
    return sequence.lastSeq();
  }

  /** Exposes this source's counters in JMX until the returned bean is closed. */
  public SourceMBean registerMBean() {
    return SourceMBean.register(host, source, counters);
  }

  public CollectorMetrics.Counters counters() {
    return counters;
  }

  public String host() {
    return host;
  }

  public String source() {
    return source;
  }
}
