package io.netpulse.cli.options;

import java.io.PrintWriter;

/**
 * Old option spellings kept one release as hidden aliases, so that users' scripts keep working while they are told,
 * in one stderr line, which option replaces the one they wrote.
 */
public final class Deprecated {

  private Deprecated() {}

  /**
   * {@code old} when the deprecated option (or its variable) was given, after one warning line; else {@code current}.
   */
  public static <T> T alias(PrintWriter err, String command, String oldFlag, String oldEnv, T old, String newFlag,
      T current) {
    if (old == null) {
      return current;
    }
    warn(err, command, oldFlag + (oldEnv == null ? "" : " (" + oldEnv + ")"), newFlag);
    return old;
  }

  public static void warn(PrintWriter err, String command, String oldFlag, String newFlag) {
    err.println("netpulse " + command + ": warning: " + oldFlag + " is deprecated and will be removed in the next "
        + "release; use " + newFlag);
    err.flush();
  }
}
