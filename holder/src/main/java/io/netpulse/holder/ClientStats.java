package io.netpulse.holder;

/**
 * A client's counts at one moment.
 *
 * @param open         connections established and held right now
 * @param cap          connections to open at most; null: no cap
 * @param opened       connects that succeeded since start
 * @param failed       connects that failed (refused, unreachable, timed out)
 * @param inFlight     connects started and not yet finished
 * @param closedByPeer held connections the server closed or reset
 * @param peakOpen     the most held at once
 */
public record ClientStats(long open, Long cap, long opened, long failed, int inFlight, long closedByPeer,
    long peakOpen) {
}
