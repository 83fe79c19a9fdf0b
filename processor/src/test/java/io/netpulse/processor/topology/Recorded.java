package io.netpulse.processor.topology;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/** Tool outputs captured from the real tools on this machine (the parsers' fixtures, see their README). */
public final class Recorded {

  private Recorded() {}

  public static String output(String pathUnderParseFixtures) {
    String path = "/io/netpulse/tools/" + pathUnderParseFixtures;
    try (InputStream in = Recorded.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalArgumentException("no fixture " + path);
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
