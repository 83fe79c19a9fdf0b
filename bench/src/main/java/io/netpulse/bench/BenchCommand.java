package io.netpulse.bench;

import picocli.CommandLine.Command;

/** {@code netpulse bench …}: measurements of netpulse itself on this machine. */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "Benchmarks of netpulse itself.",
    subcommands = {ProcessorBenchCommand.class, FleetBenchCommand.class})
public final class BenchCommand implements Runnable {

  @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

  @Override
  public void run() {
    throw new picocli.CommandLine.ParameterException(spec.commandLine(), "bench needs a subcommand: processor or fleet");
  }
}
