package io.netpulse.holder;

import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The line a connection tool prints when its climb ends (the client) or when it meets a limit of its own (the
 * server): {@code connections: climb ended_by=client_ports side=client open=4000 | DETAIL}. The launcher reads it
 * back from the tool's output to say what ended the repetition's climb; this class is the one place the format
 * lives.
 *
 * @param end    what ended it
 * @param open   connections this process held at that moment
 * @param detail one line for people: the numbers behind it and what to change
 */
public record ClimbLine(ClimbEnd end, long open, String detail) {

  static final String PREFIX = "connections: climb ";
  private static final Pattern LINE =
      Pattern.compile("connections: climb ended_by=([a-z_]+) side=[a-z]+ open=(\\d+) \\| (.*)");

  public ClimbLine {
    detail = detail == null ? "" : detail.replaceAll("[\\r\\n]+", " ").strip();
  }

  public String line() {
    return String.format(Locale.ROOT, "%sended_by=%s side=%s open=%d | %s", PREFIX, end.code(), end.side().code(),
        open, detail);
  }

  /** The line, if {@code text} is one; an unknown code (a newer tool) is not. */
  public static Optional<ClimbLine> parse(String text) {
    Matcher m = LINE.matcher(text.strip());
    if (!m.matches()) {
      return Optional.empty();
    }
    ClimbEnd end = ClimbEnd.ofCode(m.group(1));
    return end == null ? Optional.empty() : Optional.of(new ClimbLine(end, Long.parseLong(m.group(2)), m.group(3)));
  }

  /** The last such line of a tool's output. */
  public static Optional<ClimbLine> lastIn(String output) {
    if (output == null) {
      return Optional.empty();
    }
    return output.lines().filter(l -> l.startsWith(PREFIX)).map(ClimbLine::parse).flatMap(Optional::stream)
        .reduce((a, b) -> b);
  }
}
