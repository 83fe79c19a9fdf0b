package io.netpulse.collector;

/**
 * Counters of one source at one instant.
 *
 * @param read      lines read from the sampler
 * @param sent      lines acknowledged by Kafka (acks=all)
 * @param spooled   lines written to the disk spool because Kafka was behind or away
 * @param dropped   lines lost because the spool bound was hit (the oldest go first)
 * @param restarts  times the sampler was started again after it died
 * @param gaps      reconnections after a lost SSH session
 * @param gapMillis total time without a connection over all gaps, in milliseconds
 * @param restartGaps      collector restarts after which the source read again (at most one per start)
 * @param restartGapMillis time from the previous start's last line to this start's first, in milliseconds
 */
public record SourceStats(SourceId id, long read, long sent, long spooled, long dropped, long restarts,
    long gaps, long gapMillis, long restartGaps, long restartGapMillis) {

  public String logLine() {
    return id + " read=" + read + " sent=" + sent + " spooled=" + spooled + " dropped=" + dropped
        + " restarts=" + restarts + " gaps=" + gaps + " gap_ms=" + gapMillis + " restart_gaps=" + restartGaps
        + " restart_gap_ms=" + restartGapMillis;
  }
}
