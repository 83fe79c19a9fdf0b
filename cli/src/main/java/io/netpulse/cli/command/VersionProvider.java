package io.netpulse.cli.command;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the version the build wrote into {@code io/netpulse/cli/version.properties}. */
public final class VersionProvider implements IVersionProvider {

  static final String RESOURCE = "/io/netpulse/cli/version.properties";

  @Override
  public String[] getVersion() {
    return new String[] {"netpulse " + version()};
  }

  /** The build's version; "unknown (no version.properties)" when run from sources the build did not process. */
  static String version() {
    try (InputStream in = VersionProvider.class.getResourceAsStream(RESOURCE)) {
      if (in == null) {
        return "unknown (no version.properties)";
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version", "").strip();
      return v.isEmpty() || v.startsWith("${") ? "unknown (version.properties not filled in)" : v;
    } catch (IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }
}
