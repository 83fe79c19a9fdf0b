package io.netpulse.cli;

import io.netpulse.cli.command.CleanupCommand;
import io.netpulse.cli.command.CollectorCommand;
import io.netpulse.cli.command.CompareCommand;
import io.netpulse.cli.command.DashboardCommand;
import io.netpulse.cli.command.DemoCommand;
import io.netpulse.cli.options.EnvHelp;
import io.netpulse.cli.command.ExportCommand;
import io.netpulse.cli.command.NetpulseCommand;
import io.netpulse.cli.command.ParseCommand;
import io.netpulse.cli.command.ProcessorCommand;
import io.netpulse.cli.command.ReportCommand;
import io.netpulse.cli.command.RunCommand;
import io.netpulse.cli.options.UserErrors;
import io.netpulse.cli.command.VersionProvider;
import io.netpulse.cli.topics.TopicsCommand;
import io.netpulse.holder.ConnectionsCommand;
import picocli.CommandLine;

/** Entry point of {@code bin/netpulse}: only wires the subcommands together. */
public final class Main {

  private Main() {}

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  /** Every subcommand's {@code --version} says the build's version too (picocli leaves theirs empty). */
  private static void withVersion(CommandLine cli, VersionProvider version) {
    cli.getCommandSpec().versionProvider(version);
    cli.getSubcommands().values().forEach(sub -> withVersion(sub, version));
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
        .addSubcommand(new ConnectionsCommand())
        .addSubcommand(new CleanupCommand());
    cli.setExecutionExceptionHandler(UserErrors::handle);
    withVersion(cli, new VersionProvider());
    return EnvHelp.install(cli);
  }
}
