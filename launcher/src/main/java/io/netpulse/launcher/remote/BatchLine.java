package io.netpulse.launcher.remote;

/**
 * One line of a batch's protocol after its marker ({@link BatchScript}): {@code KIND INSTANCE[ REST]}, the kind one
 * character ({@code o} stdout, {@code e} stderr, {@code p} PID, {@code g} start stamp, {@code x} exit status).
 */
record BatchLine(char kind, int instance, String rest) {

  /** The line read, or null when it has not that shape (a garbled line, interleaved past PIPE_BUF). */
  static BatchLine parse(String line) {
    int space1 = line.indexOf(' ');
    if (space1 != 1) {
      return null;
    }
    int space2 = line.indexOf(' ', space1 + 1);
    try {
      int instance = Integer.parseInt(space2 < 0 ? line.substring(2) : line.substring(2, space2));
      return new BatchLine(line.charAt(0), instance, space2 < 0 ? "" : line.substring(space2 + 1));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
