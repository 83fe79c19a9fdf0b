package io.netpulse.bench;

import io.netpulse.cli.options.EnvHelp;
import io.netpulse.cli.options.UserErrors;
import picocli.CommandLine;

/**
 * Entry point of {@code bin/netpulse bench …}: the benchmarks of netpulse itself, kept out of the shipped jar (they
 * measure this machine, no user needs them on a host). bin/netpulse runs this jar with netpulse.jar beside it.
 */
public final class BenchMain {

  private BenchMain() {}

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new BenchCommand()).setCommandName("netpulse bench");
    cli.setExecutionExceptionHandler(UserErrors::handle);
    return EnvHelp.install(cli);
  }
}
