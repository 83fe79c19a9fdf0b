package io.netpulse.tools;

import io.netpulse.common.catalog.Sources;
import io.netpulse.tools.parse.LineParser;
import io.netpulse.tools.parse.OutputParser;
import io.netpulse.tools.parse.ParseContext;
import io.netpulse.tools.parse.ParseError;
import io.netpulse.tools.parse.ParseResult;
import io.netpulse.tools.parse.Text;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Mutates every fixture (truncation, byte flips, inserted garbage, non-UTF-8 bytes, huge lines,
 * empty input, lines swapped) and feeds it to its own parser and, sometimes, to another one. No
 * exception may escape: bad input must come back as ParseErrors. Seeded, so a failure repeats.
 */
@Tag("unit")
class ParserFuzzTest {

  private static final int CASES = 120_000;
  private static final Map<String, String> FORMAT_OF_DIR = Map.of(
      "sar", Sources.SAR_DEV, "netperf", "netperf", "iperf3", "iperf3", "iperf", "iperf", "qperf", "qperf",
      "sockperf", "sockperf", "ping", "ping", "ss", "ss-summary", "proc", "proc-net-dev");
  private static final String[] GARBAGE = {
    "\u0000", "\uFFFD", "\u001B[2;35m", "Average:", "IFACE", "[SUM]", "Interim result:", "12:00:00 PM",
    "99:99:99", " -1e309 ", "NaN", "1.2.3", "10^99bits/s", "---> percentile", "TCP:", "Inter-|", "{\"end\":",
    "\r", "\t", "  ", "sec", "ms", "/", "(", ")", "%", "=", "0x1p3", "99999999999999999999999"
  };

  private record Fixture(String format, byte[] bytes) {}

  @Test
  @org.junit.jupiter.api.Timeout(120) // a regex gone quadratic must fail here, not hang the build
  void noExceptionEscapesAnyParser() throws Exception {
    List<Fixture> fixtures = fixtures();
    assertThat(fixtures).hasSizeGreaterThan(30);
    List<String> formats = Parsers.formats();
    SplittableRandom random = new SplittableRandom(20261130L);
    ParseContext[] contexts = {
      new ParseContext(ZoneOffset.UTC, 0, null),
      ParseContext.streamed(1_796_015_700_000L),
      new ParseContext(ZoneId.of("America/New_York"), 1_772_953_200_000L, "TCP_RR"), // a DST day
      new ParseContext(null, -1, "UDP_STREAM"),
    };
    long lines = 0;
    for (int i = 0; i < CASES; i++) {
      Fixture f = fixtures.get(random.nextInt(fixtures.size()));
      String text = mutate(f.bytes(), random);
      String format = random.nextInt(10) < 7 ? f.format() : formats.get(random.nextInt(formats.size()));
      OutputParser parser = Parsers.forFormat(format);
      ParseContext context = contexts[random.nextInt(contexts.length)];
      List<String> input = Fixtures.split(text);
      lines += input.size();
      ParseResult r;
      try {
        r = parser.parse(input, context);
        if (parser instanceof LineParser lp && !input.isEmpty()) {
          lp.parseLine(input.get(random.nextInt(input.size())), 0, context);
        }
      } catch (RuntimeException | StackOverflowError e) {
        throw new AssertionError("case " + i + ": " + format + " threw on:\n" + Text.shown(text), e);
      }
      assertThat(r).isNotNull();
      for (ParseError e : r.errors()) {
        if (e.line() < 0 || e.line() > input.size() || e.describe().length() > 400) {
          throw new AssertionError("case " + i + " " + format + ": bad error (" + input.size() + " lines) " + Text.shown(e.describe()));
        }
      }
    }
    assertThat(lines).isGreaterThan(CASES);
  }

  private static String mutate(byte[] original, SplittableRandom random) {
    int kind = random.nextInt(100);
    if (kind == 0) {
      return "";
    }
    byte[] b = original.clone();
    int edits = 1 + random.nextInt(4);
    StringBuilder text = null;
    for (int e = 0; e < edits; e++) {
      int op = random.nextInt(7);
      if (op == 0 && b.length > 0) { // truncate
        b = java.util.Arrays.copyOf(b, random.nextInt(b.length));
      } else if (op == 1 && b.length > 0) { // byte flips, including non-UTF-8 bytes
        for (int k = random.nextInt(1, 6); k > 0; k--) {
          b[random.nextInt(b.length)] = (byte) random.nextInt(256);
        }
      } else if (op == 2) { // insert non-UTF-8 bytes
        int at = b.length == 0 ? 0 : random.nextInt(b.length);
        byte[] bad = {(byte) 0xC3, (byte) 0x28, (byte) 0xFF, (byte) 0xFE, (byte) 0x80};
        byte[] out = new byte[b.length + bad.length];
        System.arraycopy(b, 0, out, 0, at);
        System.arraycopy(bad, 0, out, at, bad.length);
        System.arraycopy(b, at, out, at + bad.length, b.length - at);
        b = out;
      } else {
        if (text == null) {
          text = new StringBuilder(new String(b, random.nextBoolean() ? StandardCharsets.UTF_8 : StandardCharsets.ISO_8859_1));
        }
        int at = text.length() == 0 ? 0 : random.nextInt(text.length());
        if (op == 3) { // inserted garbage tokens
          text.insert(at, GARBAGE[random.nextInt(GARBAGE.length)]);
        } else if (op == 4 && random.nextInt(40) == 0) { // a huge line, 2-4 times the parsers' cap (Text.MAX_LINE): longer ones only cost copying
          text.insert(at, "9".repeat(16_384 + random.nextInt(16_384)));
        } else if (op == 5 && text.length() > 0) { // a digit changed: numbers out of range, other dates
          text.setCharAt(Math.min(at, Math.max(0, text.length() - 1)), (char) ('0' + random.nextInt(10)));
        } else if (op == 6 && text.length() > 2) { // a line duplicated or removed
          int nl = text.indexOf("\n", at);
          if (nl > 0) {
            text.insert(nl, text.substring(Math.max(0, text.lastIndexOf("\n", at)), nl));
          } else {
            text.setLength(at);
          }
        }
        b = text.toString().getBytes(StandardCharsets.UTF_8);
        text = null;
      }
    }
    return new String(b, StandardCharsets.UTF_8);
  }

  private static boolean isCapture(Path p) {
    String name = p.getFileName().toString();
    return Files.isRegularFile(p) && (name.endsWith(".txt") || name.endsWith(".json"));
  }

  private static List<Fixture> fixtures() throws IOException, URISyntaxException {
    Path root = Path.of(ParserFuzzTest.class.getResource("sar").toURI()).getParent();
    List<Fixture> out = new ArrayList<>();
    for (Map.Entry<String, String> e : FORMAT_OF_DIR.entrySet()) {
      try (Stream<Path> files = Files.list(root.resolve(e.getKey()))) {
        // the test classes of a tool's package compile into the same directory: captures only
        for (Path p : files.filter(ParserFuzzTest::isCapture).sorted().toList()) {
          // proc/ holds both /proc readers' captures: proc-stat's are named after it
          String format = p.getFileName().toString().startsWith("proc-stat") ? "proc-stat" : e.getValue();
          out.add(new Fixture(format, Files.readAllBytes(p)));
        }
      }
    }
    out.sort(java.util.Comparator.comparing(f -> new String(f.bytes(), StandardCharsets.ISO_8859_1)));
    return out;
  }
}
