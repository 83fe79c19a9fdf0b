package io.netpulse.tools.parse;

/**
 * A {@link LineParser} that sees each line cleaned ({@link Text#clean}) and only once it is known to be of a length
 * some tool could print: a longer one is an error of its own, before any pattern runs on it.
 */
public abstract class CleanLineParser implements LineParser {

  private final String format;

  protected CleanLineParser(String format) {
    this.format = format;
  }

  @Override
  public final String format() {
    return format;
  }

  @Override
  public final ParseResult parseLine(String raw, int lineNumber, ParseContext context) {
    if (Text.tooLong(raw)) {
      return ParseResult.error(Text.tooLongError(lineNumber));
    }
    return parseClean(Text.clean(raw), lineNumber, context);
  }

  /** As {@link LineParser#parseLine}, for a cleaned line of a sane length. Never throws. */
  protected abstract ParseResult parseClean(String line, int lineNumber, ParseContext context);
}
