package io.netpulse.launcher.plan;

import java.util.regex.Pattern;

/**
 * Checks for values that end up in remote commands. Quoting ({@code RemoteCommand} in procedure) already makes
 * any value one argument; these reject values that can only be mistakes or attacks where a
 * newline, NUL or path separator makes no sense (interface names, user names, paths).
 */
public final class ArgumentCheck {

  /** Linux interface names: at most 15 bytes (IFNAMSIZ − 1), no '/', ':' or whitespace. */
  private static final Pattern IFACE = Pattern.compile("[A-Za-z0-9_.@-]{1,15}");
  private static final Pattern USER = Pattern.compile("[A-Za-z0-9_][A-Za-z0-9_.-]{0,31}");
  private static final Pattern ENV_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*");

  private ArgumentCheck() {}

  /** Null when {@code value} has no line breaks, NULs or other control characters; otherwise why it is refused. */
  public static String singleLineProblem(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c == '\n' || c == '\r') {
        return "contains a line break";
      }
      if (c == 0) {
        return "contains a NUL character";
      }
      if (c < 0x20 || c == 0x7f) {
        return "contains a control character (code " + (int) c + ")";
      }
    }
    return null;
  }

  public static String ifaceProblem(String iface) {
    return IFACE.matcher(iface).matches() ? null
        : "is not an interface name (1-15 of letters, digits, '_', '.', '@', '-')";
  }

  public static String userProblem(String user) {
    return USER.matcher(user).matches() ? null
        : "is not a user name (letters, digits, '_', '.', '-'; at most 32)";
  }

  /**
   * Null when {@code path} can be the program word of a {@link RemoteCommand}; otherwise why not: a leading
   * '-' would be taken for an option (by prlimit, env) and a '=' for an environment assignment.
   */
  public static String programProblem(String path) {
    if (path.startsWith("-")) {
      return "starts with '-'";
    }
    return path.contains("=") ? "contains '='" : null;
  }

  public static boolean isEnvName(String name) {
    return ENV_NAME.matcher(name).matches();
  }

  /** Throws {@link IllegalArgumentException} naming {@code what} when {@code problem} is not null. */
  public static void require(String what, String value, String problem) {
    if (problem != null) {
      throw new IllegalArgumentException(what + " '" + value.replace("\n", "\\n").replace("\0", "\\0")
          + "' " + problem);
    }
  }
}
