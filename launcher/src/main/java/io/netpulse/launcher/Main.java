package io.netpulse.launcher;

import io.netpulse.launcher.cli.CleanupCommand;
import io.netpulse.launcher.cli.CollectorCommand;
import io.netpulse.launcher.cli.CompareCommand;
import io.netpulse.launcher.cli.DashboardCommand;
import io.netpulse.launcher.cli.DemoCommand;
import io.netpulse.launcher.cli.EnvHelp;
import io.netpulse.launcher.cli.ExportCommand;
import io.netpulse.launcher.cli.NetpulseCommand;
import io.netpulse.launcher.cli.ParseCommand;
import io.netpulse.launcher.cli.ProcessorCommand;
import io.netpulse.launcher.cli.ReportCommand;
import io.netpulse.launcher.cli.RunCommand;
import io.netpulse.launcher.cli.UserErrors;
import io.netpulse.launcher.cli.bench.BenchCommand;
import io.netpulse.launcher.cli.topics.TopicsCommand;
import io.netpulse.holder.ConnectionsCommand;
import picocli.CommandLine;

/** Entry point of {@code bin/netpulse}: only wires the subcommands together. */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new NetpulseCommand())
        .addSubcommand(new DemoCommand())
        .addSubcommand(new ProcessorCommand())
        .addSubcommand(new DashboardCommand())
        .addSubcommand(new ParseCommand())
        .addSubcommand(new RunCommand())
        .addSubcommand(new ReportCommand())
        .addSubcommand(new ExportCommand())
        .addSubcommand(new CompareCommand())
        .addSubcommand(new CollectorCommand())
        .addSubcommand(new TopicsCommand())
        .addSubcommand(new BenchCommand())
        .addSubcommand(new ConnectionsCommand())
        .addSubcommand(new CleanupCommand());
    cli.setExecutionExceptionHandler(UserErrors::handle);
    return EnvHelp.install(cli);
  }
}
