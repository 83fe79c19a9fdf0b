package io.netpulse.collector;

/**
 * JMX view of one source's counters, registered as {@code io.netpulse:type=collector,host=H,source=S} while the source
 * runs (see {@link SourceMBean}). Every attribute is a count since the collector started, except the milliseconds of
 * {@link #getGapMillis} and {@link #getRestartGapMillis}.
 */
public interface SourceCountersMXBean {

  /** Lines read from the sampler or tool. */
  long getLinesRead();

  /** Lines acknowledged by Kafka. */
  long getLinesSent();

  /** Lines written to the disk spool because Kafka was behind or away. */
  long getLinesSpooled();

  /** Lines lost: spool bound hit, refused by Kafka, or no spool at shutdown. */
  long getLinesDropped();

  /** Times the sampler was started again after it died. */
  long getRestarts();

  /** Reconnections after a lost SSH session. */
  long getGaps();

  /** Total time without a connection over all gaps, in milliseconds. */
  long getGapMillis();

  /** Collector restarts after which the source read again (0 or 1: counted since this start). */
  long getRestartGaps();

  /** Time from the previous collector start's last line to this start's first, in milliseconds. */
  long getRestartGapMillis();
}
