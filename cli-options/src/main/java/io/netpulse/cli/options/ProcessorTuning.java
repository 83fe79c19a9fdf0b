package io.netpulse.cli.options;

import io.netpulse.launcher.UserError;

import io.netpulse.processor.ProcessorSettings;
import java.time.Duration;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/** The processor's throughput knobs, shared by {@code processor} and the benches. */
public final class ProcessorTuning {

  @Option(names = "--guarantee", paramLabel = "GUARANTEE", defaultValue = "${env:NETPULSE_GUARANTEE:-exactly-once}",
      description = "exactly-once or at-least-once (default: ${DEFAULT-VALUE}).")
  public String guarantee;

  @Option(names = "--commit-interval", paramLabel = "DURATION",
      defaultValue = "${env:NETPULSE_COMMIT_INTERVAL:-100ms}", converter = DurationOption.Millis.class,
      description = "Kafka Streams commit interval; with exactly-once it bounds how soon outputs are visible; a bare "
          + "number is milliseconds (default: ${DEFAULT-VALUE}).")
  public Duration commitInterval;

  /** The old spelling of --commit-interval (and NETPULSE_COMMIT_MS), kept one release; warns when used. */
  @Option(names = "--commit-ms", paramLabel = "DURATION", hidden = true, defaultValue = "${env:NETPULSE_COMMIT_MS}",
      converter = DurationOption.Millis.class)
  public Duration deprecatedCommitMs;

  @Option(names = "--stream-threads", paramLabel = "N", defaultValue = "${env:NETPULSE_STREAM_THREADS:-1}",
      description = "Kafka Streams threads of this instance (default: ${DEFAULT-VALUE}).")
  public int streamThreads;

  @Option(names = "--producer-linger", paramLabel = "DURATION",
      defaultValue = "${env:NETPULSE_PRODUCER_LINGER:-5ms}", converter = DurationOption.Millis.class,
      description = "linger.ms of the processor's producer; a bare number is milliseconds (default: ${DEFAULT-VALUE}).")
  public Duration producerLinger;

  /** The old spelling of --producer-linger (and NETPULSE_PRODUCER_LINGER_MS), kept one release; warns when used. */
  @Option(names = "--producer-linger-ms", paramLabel = "DURATION", hidden = true, defaultValue = "${env:NETPULSE_PRODUCER_LINGER_MS}",
      converter = DurationOption.Millis.class)
  public Duration deprecatedProducerLingerMs;

  @Option(names = "--producer-compression", paramLabel = "CODEC", defaultValue = "${env:NETPULSE_PRODUCER_COMPRESSION:-none}",
      description = "compression of the processor's producer: none, lz4, zstd, snappy, gzip (default: ${DEFAULT-VALUE}).")
  public String compression;

  /** The settings, or a UserError naming the bad option and its variable. */
  public ProcessorSettings settings() {
    java.io.PrintWriter err = new java.io.PrintWriter(System.err, true);
    Duration commit = Deprecated.alias(err, "processor", "--commit-ms", "NETPULSE_COMMIT_MS", deprecatedCommitMs,
        "--commit-interval", commitInterval);
    Duration linger = Deprecated.alias(err, "processor", "--producer-linger-ms", "NETPULSE_PRODUCER_LINGER_MS",
        deprecatedProducerLingerMs, "--producer-linger", producerLinger);
    OptionChecks.requireRange(commit, Duration.ofMillis(1), null, "--commit-interval");
    OptionChecks.requireRange(streamThreads, 1, Long.MAX_VALUE, "--stream-threads");
    OptionChecks.requireRange(linger, Duration.ZERO, Duration.ofMillis(Integer.MAX_VALUE), "--producer-linger");
    ProcessorSettings s = ProcessorSettings.DEFAULTS;
    s = named("--guarantee", s, x -> x.withGuarantee(guarantee));
    s = named("--commit-interval", s, x -> x.withCommitInterval(commit));
    s = named("--stream-threads", s, x -> x.withStreamThreads(streamThreads));
    s = named("--producer-linger", s, x -> x.withProducerLingerMs((int) linger.toMillis()));
    return named("--producer-compression", s, x -> x.withCompression(compression));
  }

  private static ProcessorSettings named(String flag, ProcessorSettings s, UnaryOperator<ProcessorSettings> change) {
    try {
      return change.apply(s);
    } catch (IllegalArgumentException e) {
      throw new UserError(OptionChecks.named(flag) + ": " + e.getMessage());
    }
  }
}
