package io.netpulse.launcher.remote;

/** A finished short remote command: its exit status (-1 when killed by a signal) and its whole output. */
public record CommandResult(int exit, String stdout, String stderr) {

  public boolean ok() {
    return exit == 0;
  }

  /** The first non-blank line of stdout, else of stderr; "" when both are empty. */
  public String firstLine() {
    for (String text : new String[] {stdout, stderr}) {
      for (String line : text.split("\n")) {
        if (!line.isBlank()) {
          return line.strip();
        }
      }
    }
    return "";
  }
}
