package io.netpulse.cli.command;

import io.netpulse.cli.options.DurationOption;
import io.netpulse.launcher.UserError;
import io.netpulse.launcher.plan.Durations;
import java.time.Duration;
import picocli.CommandLine.Option;

/**
 * How long the commands that read results back wait for Kafka and read the topics: {@code report} and {@code export}
 * share this option, and {@code compare}, whose help says more, the check; all read NETPULSE_REPORT_TIMEOUT.
 */
final class TopicReadTimeout {

  @Option(names = "--timeout", paramLabel = "DURATION", defaultValue = "${env:NETPULSE_REPORT_TIMEOUT:-30s}",
      converter = DurationOption.Seconds.class,
      description = "how long to wait for Kafka and to read the topics ; a bare number is seconds "
          + "(default: ${DEFAULT-VALUE})")
  Duration value;

  /** {@link #require} on this option's value. */
  void check() {
    require(value);
  }

  /**
   * At least a second, checked before any Kafka client starts: a mistyped value (30ms for 30s) is then a usage error
   * naming the option, not a read that gives up at once with nothing found.
   */
  static void require(Duration timeout) {
    if (timeout.compareTo(Duration.ofSeconds(1)) < 0) {
      throw new UserError("--timeout (NETPULSE_REPORT_TIMEOUT) must be ≥ 1s, got " + Durations.format(timeout));
    }
  }
}
