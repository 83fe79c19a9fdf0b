package io.netpulse.cli.command;

import io.netpulse.cli.options.OptionChecks;
import io.netpulse.launcher.UserError;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** The InfluxDB token and the other values every store client needs, shared by the commands that write a store. */
final class InfluxToken {

  private InfluxToken() {}

  /** The token from the file, else NETPULSE_INFLUX_TOKEN, else "netpulse" (what the embedded store accepts). */
  static char[] read(Path file) {
    if (file != null) {
      try {
        return Files.readString(file).strip().toCharArray();
      } catch (IOException e) {
        throw new UserError("cannot read " + OptionChecks.named("--influx-token-file") + " " + file + ": "
            + e.getMessage());
      }
    }
    String env = System.getenv("NETPULSE_INFLUX_TOKEN");
    return env == null ? "netpulse".toCharArray() : env.toCharArray();
  }

  /** Org and bucket set, the token file readable: before anything starts, not when the first point is written. */
  static void validate(String org, String bucket, Path tokenFile) {
    OptionChecks.requireText(org, "--influx-org", "the InfluxDB organisation to write to");
    OptionChecks.requireText(bucket, "--influx-bucket", "the InfluxDB bucket to write to");
    OptionChecks.requireReadableFile(tokenFile, "--influx-token-file");
  }
}
