package io.netpulse.tools.parse;

import io.netpulse.common.event.Sample;
import java.util.List;

/** Samples found in some input, and the errors for the parts that were not understood. */
public record ParseResult(List<Sample> samples, List<ParseError> errors) {

  private static final ParseResult EMPTY = new ParseResult(List.of(), List.of());

  public ParseResult {
    samples = List.copyOf(samples);
    errors = List.copyOf(errors);
  }

  public static ParseResult empty() {
    return EMPTY;
  }

  public static ParseResult of(List<Sample> samples) {
    return new ParseResult(samples, List.of());
  }

  public static ParseResult error(ParseError error) {
    return new ParseResult(List.of(), List.of(error));
  }

  public boolean isEmpty() {
    return samples.isEmpty() && errors.isEmpty();
  }
}
