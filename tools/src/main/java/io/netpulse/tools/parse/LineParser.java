package io.netpulse.tools.parse;

/**
 * A parser whose samples each come from one line alone (sar rows, ss -s TCP line, netperf interim
 * lines), so that a stream of single lines can be parsed without state.
 */
public interface LineParser extends OutputParser {

  /**
   * Parses one line. Headers, blank lines and other lines that carry no value give an empty
   * result; a line that looks like data but cannot be read gives an error. Never throws.
   *
   * @param lineNumber 1-based position in its text, or 0 for a streamed line
   */
  ParseResult parseLine(String line, int lineNumber, ParseContext context);

  @Override
  default ParseResult parse(java.util.List<String> lines, ParseContext context) {
    java.util.List<io.netpulse.common.event.Sample> samples = new java.util.ArrayList<>();
    java.util.List<ParseError> errors = new java.util.ArrayList<>();
    int n = 0;
    for (String line : lines) {
      ParseResult r = parseLine(line, ++n, context);
      samples.addAll(r.samples());
      errors.addAll(r.errors());
    }
    return new ParseResult(samples, errors);
  }
}
