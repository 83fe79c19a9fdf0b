package io.netpulse.common.event;

/**
 * One raw line printed by a sampler or tool, as the collector read it. Parsing happens downstream
 * so that a parser fix can replay history.
 *
 * @param host   host the line was produced on (the record key)
 * @param source what printed it: sar-dev, ss-summary, proc-net-dev, netperf, iperf3, ...
 * @param run    run id while a test runs, null for fleet monitoring
 * @param seq    per-source sequence number; within one (host, source, epoch) contiguous, so a gap means lost lines
 * @param ts     epoch milliseconds when the collector read the line
 * @param instance the tool instance that printed it when several of the same tool run in one repetition
 *               (netperf fan-out), else null
 * @param epoch  the start of {@code netpulse collector} that read the line, as the epoch ms of that start (a later
 *               start has a larger one); its seq goes on from the previous start's, so (host, source, seq) stays
 *               unique too. Null for lines the launcher streams during a run (seq from 0 per tool) and in records
 *               written before it existed
 * @param gapMs  on the first line after a time without lines (a collector restart, an SSH reconnection): the
 *               milliseconds since the source's previous line was read; else null
 */
public record LineEvent(int schema, String host, String source, String run, long seq, long ts, String line,
    String instance, Long epoch, Long gapMs) {

  public static final int SCHEMA = 1;

  public static LineEvent of(String host, String source, String run, long seq, long ts, String line) {
    return new LineEvent(SCHEMA, host, source, run, seq, ts, line, null, null, null);
  }

  public LineEvent withInstance(String instance) {
    return new LineEvent(schema, host, source, run, seq, ts, line, instance, epoch, gapMs);
  }
}
