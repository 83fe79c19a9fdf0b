package io.netpulse.bench;

import io.netpulse.launcher.UserError;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

@Command(name = "processor", mixinStandardHelpOptions = true,
    description = {"Processor end-to-end lines/s on an embedded broker, against the raw produce-then-consume",
        "lines/s of the same broker in the same run, and their ratio."})
public final class ProcessorBenchCommand implements Callable<Integer> {

  @Option(names = "--lines", defaultValue = "1000000", description = "sampler lines (sar -n DEV, ss -s) to send (default: ${DEFAULT-VALUE}).")
  int lines;

  @Option(names = "--hosts", defaultValue = "100", description = "simulated hosts (default: ${DEFAULT-VALUE}).")
  int hosts;

  @Option(names = "--partitions", defaultValue = "2", description = "partitions per topic (default: ${DEFAULT-VALUE}).")
  int partitions;

  @picocli.CommandLine.Mixin io.netpulse.cli.options.ProcessorTuning tuning = new io.netpulse.cli.options.ProcessorTuning();

  @Option(names = "--details", description = "also print Streams/producer metrics and records written per line per topic.")
  boolean details;

  @picocli.CommandLine.Mixin BenchScratch scratch = new BenchScratch();

  @Override
  public Integer call() throws Exception {
    if (lines < 1000 || hosts < 1 || partitions < 1) {
      throw new UserError("bench processor: --lines must be ≥ 1000, --hosts and --partitions ≥ 1");
    }
    var settings = tuning.settings();
    try (BenchScratch.Dir dir = scratch.create("bench-")) {
      ProcessorBench.Result r = ProcessorBench.run(dir.path(), lines, hosts, partitions, settings, System.err);
      System.out.printf(Locale.ROOT, "settings: %s; %d partitions, %d hosts%n", settings.describe(), partitions, hosts);
      System.out.printf(Locale.ROOT, "processor end-to-end: %.0f lines/s%n", r.processorLinesPerS());
      System.out.printf(Locale.ROOT, "raw produce-then-consume: %.0f lines/s%n", r.rawLinesPerS());
      System.out.printf(Locale.ROOT, "ratio: %.2f (%d lines)%n", r.ratio(), r.lines());
      // The processor writes several records per line it reads (samples, rates, changelogs); raw writes one.
      // Records moved per second say how close it comes to what the broker can take here.
      System.out.printf(Locale.ROOT, "records through the broker: processor %.0f/s (1 read + %.2f written per line), "
          + "raw %.0f/s (1 written + 1 read), ratio %.2f%n", r.processorRecordsPerS(), r.writtenPerLine(),
          r.rawRecordsPerS(), r.processorRecordsPerS() / r.rawRecordsPerS());
      if (details) {
        r.details().forEach(System.out::println);
      }
      return 0;
    }
  }
}
