package io.netpulse.launcher.plan;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.regex.Pattern;

/** Host addresses a plan may give: an IPv4 or IPv6 literal, or a DNS host name (RFC 1123). Never resolved here. */
public final class Addresses {

  private static final Pattern IPV4 =
      Pattern.compile("((25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)\\.){3}(25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)");
  private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");
  private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");
  private static final Pattern ALL_DIGITS_AND_DOTS = Pattern.compile("[0-9.]+");

  private Addresses() {}

  /** Null when {@code address} is acceptable, otherwise why not. */
  public static String problem(String address) {
    if (address.isEmpty()) {
      return "the address is empty";
    }
    if (IPV4.matcher(address).matches()) {
      return null;
    }
    if (address.contains(":")) {
      if (!IPV6_CHARS.matcher(address).matches()) {
        return "'" + printable(address) + "' is not an IPv6 literal";
      }
      try {
        InetAddress.getByName(address); // a literal with ':' is parsed, never looked up
        return null;
      } catch (UnknownHostException e) {
        return "'" + address + "' is not an IPv6 literal";
      }
    }
    if (ALL_DIGITS_AND_DOTS.matcher(address).matches()) {
      return "'" + address + "' is not an IPv4 literal (four numbers 0-255)";
    }
    if (address.length() > 253) {
      return "the host name is longer than 253 characters";
    }
    for (String label : address.split("\\.", -1)) {
      if (!LABEL.matcher(label).matches()) {
        return "'" + printable(address) + "' is neither an IP literal nor a host name "
            + "(letters, digits, '-' and '.' only)";
      }
    }
    return null;
  }

  /** The value with control characters shown as escapes, so an error message stays on one line. */
  static String printable(String s) {
    StringBuilder b = new StringBuilder();
    for (char c : s.toCharArray()) {
      if (c == '\n') {
        b.append("\\n");
      } else if (c == '\r') {
        b.append("\\r");
      } else if (c == '\t') {
        b.append("\\t");
      } else if (c < 0x20 || c == 0x7f) {
        b.append(String.format("\\u%04x", (int) c));
      } else {
        b.append(c);
      }
    }
    return b.toString();
  }
}
