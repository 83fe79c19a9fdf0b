package io.netpulse.launcher.report;

import io.netpulse.dashboard.Dashboard;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/**
 * uPlot's script and stylesheet from the WebJar the dashboard serves, to inline in a report that must work
 * offline; and the report's own script and style, from this package's resources.
 */
final class UplotAssets {

  private static final Pattern SCRIPT_END = Pattern.compile("</(script)", Pattern.CASE_INSENSITIVE);
  private static final Pattern STYLE_END = Pattern.compile("</(style)", Pattern.CASE_INSENSITIVE);

  private UplotAssets() {}

  static String uplotScript() {
    return inScript(resource(Dashboard.uplotRoot() + "/uPlot.iife.min.js"));
  }

  static String uplotStyle() {
    return inStyle(resource(Dashboard.uplotRoot() + "/uPlot.min.css"));
  }

  static String reportScript() {
    return inScript(resource("io/netpulse/launcher/report/report.js"));
  }

  static String reportStyle() {
    return inStyle(resource("io/netpulse/launcher/report/report.css"));
  }

  /** Text inside a script element must not close it; "<\/script" means the same to JavaScript strings. */
  static String inScript(String js) {
    return SCRIPT_END.matcher(js).replaceAll("<\\\\/$1");
  }

  static String inStyle(String css) {
    return STYLE_END.matcher(css).replaceAll("<\\\\/$1");
  }

  private static String resource(String path) {
    try (InputStream in = UplotAssets.class.getClassLoader().getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException(path + " is missing from the classpath (a broken build?)");
      }
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path + " from the classpath", e);
    }
  }
}
