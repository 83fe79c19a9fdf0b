package io.netpulse.launcher.run;

import io.netpulse.launcher.remote.RemoteFailure;
import io.netpulse.launcher.remote.RemoteProcess;
import java.util.Collection;
import java.util.Locale;
import java.util.OptionalInt;

/**
 * A sampler runs until the launcher stops it, so one that has ended before its repetition's window closed took the
 * window's later seconds with it: an SSH session cut (a flood that drops what goes to the SUT drops the session's
 * segments too), a killed sar. The processor would value the window on the seconds that came, and say nothing; the
 * repetition fails instead, saying which sampler ended and when.
 */
final class SamplerLoss {

  private SamplerLoss() {}

  /**
   * The failure for the first of {@code samplers} that is no longer running, or null when all are.
   *
   * @param began local epoch ms the repetition began, for "ended N s into it"
   */
  static RemoteFailure of(Collection<RemoteProcess> samplers, long began) {
    for (RemoteProcess p : samplers) {
      if (p.isAlive()) {
        continue;
      }
      OptionalInt exit = p.awaitExit(java.time.Duration.ZERO);
      String how = exit.isEmpty() || exit.getAsInt() < 0 ? "killed, or its SSH connection was lost"
          : "exit " + exit.getAsInt();
      return new RemoteFailure(p.host(), String.format(Locale.ROOT,
          "host %s: sampler %s ended %.1f s into the repetition (%s), before its window closed: the window's later "
              + "seconds were never sampled, so the repetition has no value", p.host(), p.label(),
          (p.endedMillis() - began) / 1000.0, how));
    }
    return null;
  }
}
