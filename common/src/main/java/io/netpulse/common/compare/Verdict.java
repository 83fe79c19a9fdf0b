package io.netpulse.common.compare;

/** What a comparison of B against A says, from B's side: "B is better than A". */
public enum Verdict {
  BETTER("better"),
  WORSE("worse"),
  NO_SIGNIFICANT_DIFFERENCE("no significant difference"),
  /** A metric of unknown direction that differs significantly: which way is good is not known. */
  DIFFERENT("significantly different"),
  /** Fewer than two repetitions on a side: no variance, so no test. */
  NOT_ENOUGH_REPETITIONS("not enough repetitions");

  private final String text;

  Verdict(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }
}
