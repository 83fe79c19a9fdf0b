package io.netpulse.tools.parse;

/**
 * Why one input line gave no sample: says where (line number, field) and what was expected.
 *
 * @param line    1-based line number in the parsed text (0 when unknown, e.g. a streamed line)
 * @param field   the column or field that was wrong, or null for the line as a whole
 * @param message what was wrong, in words a user can act on
 */
public record ParseError(int line, String field, String message) {

  public String describe() {
    StringBuilder sb = new StringBuilder();
    if (line > 0) {
      sb.append("line ").append(line).append(": ");
    }
    if (field != null) {
      sb.append("field ").append(field).append(": ");
    }
    return sb.append(message).toString();
  }
}
