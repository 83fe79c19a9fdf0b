package io.netpulse.common.compare;

/**
 * An execution id, plan name or label selector that names no execution, or a selector that is not one. The message
 * is one line for people; {@link #kind()} lets the CLI (exit 2) and the dashboard (400 or 404) answer each their way.
 */
public final class ExecutionLookupException extends RuntimeException {

  /** What went wrong. */
  public enum Kind {
    /** Not {@code KEY=VALUE[,KEY=VALUE]}, or empty. */
    MALFORMED,
    /** A well-formed label selector that no execution's labels hold. */
    NO_LABEL_MATCH,
    /** Neither an execution id nor a plan name that has results. */
    UNKNOWN
  }

  private final Kind kind;

  public ExecutionLookupException(Kind kind, String message) {
    super(message);
    this.kind = kind;
  }

  public Kind kind() {
    return kind;
  }
}
