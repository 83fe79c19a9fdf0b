package io.netpulse.collector;

import io.netpulse.common.event.LineEvent;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Turns the lines of one source into events: numbers them from 0 (the sequence goes on across sampler restarts and
 * reconnections, so a gap in it on the topic means lost lines), stamps the read time and counts them.
 */
public final class LineEmitter {

  private final String host;
  private final String source;
  private final String run;
  private final String instance;
  private final LineSink sink;
  private final CollectorMetrics.Counters counters;
  private final AtomicLong seq = new AtomicLong();

  public LineEmitter(String host, String source, String run, LineSink sink, CollectorMetrics metrics) {
    this(host, source, run, null, sink, metrics);
  }

  /** @param instance the tool instance within the run, for one of several of the same tool (netperf fan-out) */
  public LineEmitter(String host, String source, String run, String instance, LineSink sink, CollectorMetrics metrics) {
    this.host = host;
    this.source = source;
    this.run = run;
    this.instance = instance;
    this.sink = sink;
    this.counters = metrics.of(host, source);
  }

  public void emit(String line) {
    counters.read();
    LineEvent event = LineEvent.of(host, source, run, seq.getAndIncrement(), System.currentTimeMillis(), line);
    sink.send(instance == null ? event : event.withInstance(instance));
  }

  /** Lines emitted so far, which is also the next sequence number. */
  public long emitted() {
    return seq.get();
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
