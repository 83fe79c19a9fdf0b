package io.netpulse.bench;

import io.netpulse.cli.options.ProcessorTuning;
import io.netpulse.launcher.UserError;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "fleet", mixinStandardHelpOptions = true,
    description = {"N simulated hosts sending sar -n DEV 1 and ss -s each second through the collector path to an "
        + "embedded broker, processed by 1 or 2 processor instances; prints lines, consumer lag, heap and 1-s value delay "
        + "every report period and whether lag and heap stay flat. Exit code 1 when the processor falls behind."})
public final class FleetBenchCommand implements Callable<Integer> {

  @Option(names = "--hosts", defaultValue = "1000", description = "simulated hosts (default: ${DEFAULT-VALUE}).")
  int hosts;

  @Option(names = "--minutes", defaultValue = "10", description = "length in minutes (default: ${DEFAULT-VALUE}).")
  int minutes;

  @Option(names = "--seconds", description = "length in seconds instead of --minutes (short runs).")
  Integer seconds;

  @Option(names = "--report-seconds", defaultValue = "60",
      description = "seconds between reports (default: ${DEFAULT-VALUE}).")
  int reportSeconds;

  @Option(names = "--instances", defaultValue = "1", description = "processor instances, 1 or 2 (default: ${DEFAULT-VALUE}).")
  int instances;

  @Option(names = "--partitions", defaultValue = "4", description = "partitions per topic (default: ${DEFAULT-VALUE}).")
  int partitions;

  @Mixin ProcessorTuning tuning = new ProcessorTuning();

  @Mixin BenchScratch scratch = new BenchScratch();

  @Override
  public Integer call() throws Exception {
    Duration length = seconds != null ? Duration.ofSeconds(seconds) : Duration.ofMinutes(minutes);
    if (hosts < 1 || length.toSeconds() < 1 || reportSeconds < 1 || partitions < 1) {
      throw new UserError("bench fleet: --hosts, --minutes/--seconds, --report-seconds and --partitions must be ≥ 1");
    }
    if (instances != 1 && instances != 2) {
      throw new UserError("bench fleet: --instances must be 1 or 2, got " + instances);
    }
    Duration every = Duration.ofSeconds(Math.min(reportSeconds, length.toSeconds()));
    var settings = tuning.settings();
    try (BenchScratch.Dir dir = scratch.create("fleet-")) {
      FleetBench.Verdict v = FleetBench.run(dir.path(), hosts, length, every, instances, partitions, settings, System.out);
      return v.keptUp() ? 0 : 1;
    }
  }
}
