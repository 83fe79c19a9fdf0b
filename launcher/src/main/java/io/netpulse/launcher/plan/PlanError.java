package io.netpulse.launcher.plan;

/** One thing wrong with a plan, where it is (1-based line and column) and what was expected. */
public record PlanError(String file, int line, int column, String message) {

  /** {@code file:line:column: message}, the form editors and compilers use. */
  public String describe() {
    return file + ":" + line + ":" + column + ": " + message;
  }
}
