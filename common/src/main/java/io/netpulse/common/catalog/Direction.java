package io.netpulse.common.catalog;

/** Which way a metric improves: a comparison's verdict needs it to say "better" rather than "higher". */
public enum Direction {
  HIGHER_IS_BETTER("higher is better"),
  LOWER_IS_BETTER("lower is better"),
  /** A metric the catalog does not know and whose unit does not tell: only "different" can be said. */
  UNKNOWN("direction unknown");

  private final String text;

  Direction(String text) {
    this.text = text;
  }

  public String text() {
    return text;
  }
}
