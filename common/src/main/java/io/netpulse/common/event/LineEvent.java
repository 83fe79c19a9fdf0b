package io.netpulse.common.event;

/**
 * One raw line printed by a sampler or tool, as the collector read it. Parsing happens downstream
 * so that a parser fix can replay history.
 *
 * @param host   host the line was produced on (the record key)
 * @param source what printed it: sar-dev, ss-summary, proc-net-dev, netperf, iperf3, ...
 * @param run    run id while a test runs, null for fleet monitoring
 * @param seq    per-source sequence number, contiguous from 0 for one collector source
 * @param ts     epoch milliseconds when the collector read the line
 * @param instance the tool instance that printed it when several of the same tool run in one repetition
 *               (netperf fan-out), else null
 */
public record LineEvent(int schema, String host, String source, String run, long seq, long ts, String line,
    String instance) {

  public static final int SCHEMA = 1;

  /** The layout before instance: it stays null. */
  public LineEvent(int schema, String host, String source, String run, long seq, long ts, String line) {
    this(schema, host, source, run, seq, ts, line, null);
  }

  public static LineEvent of(String host, String source, String run, long seq, long ts, String line) {
    return new LineEvent(SCHEMA, host, source, run, seq, ts, line, null);
  }

  public LineEvent withInstance(String instance) {
    return new LineEvent(schema, host, source, run, seq, ts, line, instance);
  }
}
