package io.netpulse.tools.parse;

import java.util.List;

/** Parses the whole output of one tool (a file, or a finished tool's stdout) into samples. */
public interface OutputParser {

  /** Format name as used by {@code netpulse parse --format} and the {@code source} of a line. */
  String format();

  /**
   * Parses every line. Never throws for bad input: what cannot be understood becomes a
   * {@link ParseError} naming the line, and parsing goes on with the next one.
   */
  ParseResult parse(List<String> lines, ParseContext context);
}
