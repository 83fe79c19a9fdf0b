package io.netpulse.cli.command;

import io.netpulse.launcher.UserError;

import io.netpulse.processor.ProcessorSettings;
import java.time.Duration;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/** The processor's throughput knobs, shared by {@code processor} and the benches. */
public final class ProcessorTuning {

  @Option(names = "--guarantee", defaultValue = "${env:NETPULSE_GUARANTEE:-exactly-once}",
      description = "exactly-once or at-least-once (default: ${DEFAULT-VALUE}).")
  public String guarantee;

  @Option(names = "--commit-ms", defaultValue = "${env:NETPULSE_COMMIT_MS:-100}",
      description = "Kafka Streams commit interval in ms; with exactly-once it bounds how soon outputs are "
          + "visible (default: ${DEFAULT-VALUE}).")
  public long commitMs;

  @Option(names = "--stream-threads", defaultValue = "${env:NETPULSE_STREAM_THREADS:-1}",
      description = "Kafka Streams threads of this instance (default: ${DEFAULT-VALUE}).")
  public int streamThreads;

  @Option(names = "--producer-linger-ms", defaultValue = "${env:NETPULSE_PRODUCER_LINGER_MS:-5}",
      description = "linger.ms of the processor's producer (default: ${DEFAULT-VALUE}).")
  public int producerLingerMs;

  @Option(names = "--producer-compression", defaultValue = "${env:NETPULSE_PRODUCER_COMPRESSION:-none}",
      description = "compression of the processor's producer: none, lz4, zstd, snappy, gzip (default: ${DEFAULT-VALUE}).")
  public String compression;

  /** The settings, or a UserError naming the bad option and its variable. */
  public ProcessorSettings settings() {
    OptionChecks.requireRange(commitMs, 1, Long.MAX_VALUE, "--commit-ms");
    OptionChecks.requireRange(streamThreads, 1, Long.MAX_VALUE, "--stream-threads");
    OptionChecks.requireRange(producerLingerMs, 0, Long.MAX_VALUE, "--producer-linger-ms");
    ProcessorSettings s = ProcessorSettings.DEFAULTS;
    s = named("--guarantee", s, x -> x.withGuarantee(guarantee));
    s = named("--commit-ms", s, x -> x.withCommitInterval(Duration.ofMillis(commitMs)));
    s = named("--stream-threads", s, x -> x.withStreamThreads(streamThreads));
    s = named("--producer-linger-ms", s, x -> x.withProducerLingerMs(producerLingerMs));
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
