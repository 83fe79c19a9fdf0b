package io.netpulse.tools;

import io.netpulse.common.event.Sample;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Collectors;

/** Fixture files beside the tests, captured from the real tools (see fixtures' README). */
public final class Fixtures {

  private Fixtures() {}

  /** Lines of a fixture, line ends kept as the tool wrote them except the final \n split. */
  public static List<String> lines(String path) {
    return split(text(path));
  }

  /** Splits at \n only, so a CR stays on its line as a CRLF file gives it to a parser. */
  public static List<String> split(String text) {
    List<String> lines = new java.util.ArrayList<>(List.of(text.split("\n", -1)));
    if (!lines.isEmpty() && lines.get(lines.size() - 1).isEmpty()) {
      lines.remove(lines.size() - 1);
    }
    return lines;
  }

  public static String text(String path) {
    try (InputStream in = Fixtures.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  public static List<Sample> find(List<Sample> samples, String metric, String iface) {
    return samples.stream()
        .filter(s -> s.metric().equals(metric) && (iface == null || iface.equals(s.iface())))
        .collect(Collectors.toList());
  }

  public static Sample only(List<Sample> samples, String metric) {
    List<Sample> found = find(samples, metric, null);
    if (found.size() != 1) {
      throw new AssertionError("expected one " + metric + ", found " + found + " in " + samples);
    }
    return found.get(0);
  }
}
