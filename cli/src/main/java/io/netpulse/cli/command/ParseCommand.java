package io.netpulse.cli.command;

import io.netpulse.cli.options.Deprecated;
import com.fasterxml.jackson.core.JsonProcessingException;
import io.netpulse.common.event.Sample;
import io.netpulse.common.json.Json;
import io.netpulse.tools.parse.OutputParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.Parsers;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.nio.ByteBuffer;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.ZoneId;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code netpulse parse --tool TOOL [--test NAME] [--tz ZONE] [FILE|-]}: a tool's saved output
 * to JSON Lines, one sample per line. Errors go to stderr with file and line; the good samples are
 * still printed. Exit 0 when at least one sample was found, 2 when none or on bad usage.
 */
@Command(
    name = "parse",
    mixinStandardHelpOptions = true,
    description = "Parse a tool's output (a file, or - for stdin) into samples, one JSON object per line.")
public class ParseCommand implements Callable<Integer> {

  static final int OK = 0;
  static final int NOTHING_OR_USAGE = 2;

  @Spec CommandSpec spec;

  /** Not picocli-required, so that the deprecated --format can stand in for it. */
  @Option(names = "--tool", paramLabel = "TOOL",
      description = "whose output FILE holds (required): sar-dev, proc-net-dev, proc-stat, ss-summary, netperf, iperf3, "
          + "iperf, qperf, sockperf, ping")
  String tool;

  /** The old spelling of --tool, kept one release for scripts; --format names an output format everywhere else. */
  @Option(names = "--format", paramLabel = "TOOL", hidden = true)
  String deprecatedFormat;

  @Option(names = "--test", paramLabel = "NAME",
      description = "test type when the output does not say (netperf -P 0), e.g. TCP_RR")
  String test;

  @Option(names = "--tz", paramLabel = "ZONE",
      description = "time zone of clock times in the output (sar), e.g. UTC or Asia/Shanghai; default: this machine's")
  String zone;

  @Parameters(arity = "0..1", paramLabel = "FILE|-", description = "file to read; - or nothing for stdin")
  String file = "-";

  private final InputStream stdin;

  public ParseCommand() {
    this(System.in);
  }

  /** For tests: what {@code -} reads. */
  public ParseCommand(InputStream stdin) {
    this.stdin = stdin;
  }

  @Override
  public Integer call() {
    PrintWriter out = spec.commandLine().getOut();
    PrintWriter err = spec.commandLine().getErr();
    String format = Deprecated.alias(err, "parse", "--format", null, deprecatedFormat, "--tool", tool);
    if (format == null) {
      err.println("netpulse parse: missing --tool TOOL: the tool whose output to read, e.g. --tool sar-dev");
      return NOTHING_OR_USAGE;
    }
    if (!Parsers.formats().contains(format)) {
      err.println("netpulse parse: unknown --tool '" + format + "', expected one of: "
          + String.join(", ", Parsers.formats()));
      return NOTHING_OR_USAGE;
    }
    OutputParser parser;
    ZoneId tz;
    try {
      parser = Parsers.forFormat(format);
      tz = zone == null ? ZoneId.systemDefault() : ZoneId.of(zone);
    } catch (IllegalArgumentException | DateTimeException e) {
      err.println("netpulse parse: " + e.getMessage());
      return NOTHING_OR_USAGE;
    }
    String name = "-".equals(file) ? "<stdin>" : file;
    List<String> lines;
    try {
      byte[] bytes = "-".equals(file) ? stdin.readAllBytes() : Files.readAllBytes(Path.of(file));
      lines = lines(bytes);
    } catch (IOException | java.nio.file.InvalidPathException e) {
      err.println("netpulse parse: cannot read " + name + ": " + e.getMessage());
      return NOTHING_OR_USAGE;
    }
    ParseResult result = parser.parse(lines, new ParseContext(tz, 0, test));
    int printed = 0;
    for (Sample s : result.samples()) {
      if (Double.isFinite(s.value())) { // JSON has no NaN or Infinity
        out.println(json(s));
        printed++;
      } else {
        err.println(name + ": " + s.metric() + " is not a finite number, left out");
      }
    }
    for (ParseError e : result.errors()) {
      err.println(name + ": " + e.describe());
    }
    out.flush();
    if (printed == 0) {
      err.println("netpulse parse: no " + format + " samples in " + name);
      return NOTHING_OR_USAGE;
    }
    return OK;
  }

  /** Lines split at \n (parsers strip the CR of CRLF); bytes that are not UTF-8 become U+FFFD. */
  static List<String> lines(byte[] bytes) throws IOException {
    String text = StandardCharsets.UTF_8.newDecoder()
        .onMalformedInput(CodingErrorAction.REPLACE)
        .onUnmappableCharacter(CodingErrorAction.REPLACE)
        .decode(ByteBuffer.wrap(bytes))
        .toString();
    if (text.isEmpty()) {
      return List.of();
    }
    List<String> lines = Arrays.asList(text.split("\n", -1));
    return text.endsWith("\n") ? lines.subList(0, lines.size() - 1) : lines;
  }

  /** The sample as the CLI contract prints it: metric, value, then iface, ts, unit, summary, test where set. */
  static String json(Sample s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("metric", s.metric());
    m.put("value", s.value());
    if (s.iface() != null) {
      m.put("iface", s.iface());
    }
    if (s.ts() != 0) {
      m.put("ts", s.ts());
    }
    if (s.unit() != null) {
      m.put("unit", s.unit());
    }
    if (s.summary()) {
      m.put("summary", true);
    }
    if (s.test() != null) {
      m.put("test", s.test());
    }
    try {
      return Json.mapper().writeValueAsString(m);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("a map of strings and numbers always serialises", e);
    }
  }
}
