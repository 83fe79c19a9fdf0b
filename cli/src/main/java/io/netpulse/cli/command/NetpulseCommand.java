package io.netpulse.cli.command;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

@Command(
    name = "netpulse",
    mixinStandardHelpOptions = true,
    versionProvider = VersionProvider.class,
    description = {
      "Runs cloud vendors' network benchmark procedures (latency, bandwidth, PPS, connections/s, "
          + "concurrent connections) as an event-driven pipeline: collector -> Kafka -> Kafka Streams "
          + "processor -> InfluxDB, with a live dashboard.",
      ""
    },
    footer = {"", "Exit codes: 0 success, 1 a test failed or Kafka could not be reached, 2 bad usage or input.",
        "Run 'netpulse COMMAND --help' for a command's options.",
        "Benchmarks of netpulse itself are in their own jar: 'bin/netpulse bench --help' (docs/benchmarks.md)."})
public final class NetpulseCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "missing command: choose one of "
        + String.join(", ", spec.subcommands().keySet()));
  }
}
