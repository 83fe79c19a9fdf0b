package io.netpulse.cli.topics;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code netpulse topics lag|tail|list}: what an operator would otherwise need Kafka's shell tools for. */
@Command(name = "topics", mixinStandardHelpOptions = true,
    description = {"netpulse's topics and consumer groups on a Kafka cluster: lag, tail, list.",
      "With the same --bootstrap-servers and --kafka-config as the other commands: 'lag' how far the processor and "
        + "the store writer are behind, 'tail' a topic's records, 'list' the topics and their record counts."},
    subcommands = {TopicsLagCommand.class, TopicsTailCommand.class, TopicsListCommand.class})
public final class TopicsCommand implements Runnable {

  @Spec CommandSpec spec;

  @Override
  public void run() {
    throw new ParameterException(spec.commandLine(), "topics needs a subcommand: lag, tail or list");
  }
}
