package io.netpulse.processor.topology;

/**
 * Bounds on the names an input record carries (host, source, run, ...). Names travel into keys, samples, rates,
 * state stores and their changelogs; a name of hundreds of kilobytes would make one of those records too large to
 * write, and under exactly-once an unwritable record stops the task for good. Past these bounds a record goes to
 * the dead-letter topic instead.
 */
public final class InputLimits {

  /**
   * A DNS name is at most 253 characters, but plan and test names are the user's and may be long sentences: bound
   * them far above any real name and far below what makes a record too large (900 KiB).
   */
  public static final int MAX_NAME_CHARS = 4096;
  /** Record keys are host names, run ids (plan name, time, test and repetition) or plan/execution/test/metric. */
  public static final int MAX_KEY_CHARS = 8192;

  private InputLimits() {}

  /** Why the record key is refused, or null when it is fine. */
  public static String keyProblem(String key) {
    return key != null && key.length() > MAX_KEY_CHARS
        ? "record key of " + key.length() + " characters (at most " + MAX_KEY_CHARS + ")" : null;
  }

  /**
   * The first name that is too long, as a reason, or null when all are fine.
   *
   * @param namesAndValues field name, value, field name, value, ...
   */
  public static String nameProblem(String... namesAndValues) {
    for (int i = 0; i + 1 < namesAndValues.length; i += 2) {
      String value = namesAndValues[i + 1];
      if (value != null && value.length() > MAX_NAME_CHARS) {
        return "field " + namesAndValues[i] + " of " + value.length() + " characters (at most " + MAX_NAME_CHARS + ")";
      }
    }
    return null;
  }
}
