package io.netpulse.testbed.embedded;

import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * QuestDB prints a few lines of its own straight to System.out/System.err (where it reads its log
 * config, that it is shutting down), bypassing its logger. Users of netpulse read the terminal,
 * and with {@code --output json} stdout must carry only JSON, so those exact lines are dropped.
 */
final class QuestDbChatterFilter extends PrintStream {

  private static final List<String> CHATTER = List.of(
      "Reading log configuration from ", "Created log directory: ", "QuestDB is shutting down");

  private static boolean installed;

  private QuestDbChatterFilter(PrintStream target) {
    super(target, true);
  }

  static synchronized void install() {
    if (installed) {
      return;
    }
    installed = true;
    System.setOut(new QuestDbChatterFilter(System.out));
    System.setErr(new QuestDbChatterFilter(System.err));
  }

  private static boolean isChatter(String s) {
    if (s == null) {
      return false;
    }
    for (String c : CHATTER) {
      if (s.startsWith(c)) {
        return true;
      }
    }
    return false;
  }

  @Override
  public void println(String x) {
    if (!isChatter(x)) {
      super.println(x);
    }
  }

  @Override
  public PrintStream printf(String format, Object... args) {
    return isChatter(format) ? this : super.printf(format, args);
  }

  @Override
  public PrintStream printf(Locale l, String format, Object... args) {
    return isChatter(format) ? this : super.printf(l, format, args);
  }
}
