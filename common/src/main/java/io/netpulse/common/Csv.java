package io.netpulse.common;

/**
 * One text field of RFC 4180 CSV, for the dashboard's download and {@code netpulse report}: names come from the
 * topics, so a leading {@code = + - @}, tab or CR (spreadsheets run such a cell as a formula) gets an apostrophe, as
 * OWASP's CSV-injection advice says; then the field is quoted when it holds a comma, quote or line break, or starts
 * or ends with a space. Numbers are written by netpulse and go in as they are.
 */
public final class Csv {

  private Csv() {}

  public static String field(String s) {
    if (s == null) {
      return "";
    }
    String v = !s.isEmpty() && "=+-@\t\r".indexOf(s.charAt(0)) >= 0 ? "'" + s : s;
    boolean quote = v.contains(",") || v.contains("\"") || v.contains("\n") || v.contains("\r")
        || (!v.isEmpty() && (v.charAt(0) == ' ' || v.charAt(v.length() - 1) == ' '));
    return quote ? '"' + v.replace("\"", "\"\"") + '"' : v;
  }
}
