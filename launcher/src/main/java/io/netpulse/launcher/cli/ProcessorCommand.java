package io.netpulse.launcher.cli;

import io.netpulse.processor.ProcessorApp;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "processor", mixinStandardHelpOptions = true,
    description = "Runs the Kafka Streams processor against a Kafka cluster until stopped.")
public final class ProcessorCommand implements Callable<Integer> {

  @Mixin PipelineOptions pipeline = new PipelineOptions();

  @Mixin ProcessorTuning tuning = new ProcessorTuning();

  @Option(names = "--application-id", defaultValue = "${env:NETPULSE_APPLICATION_ID:-"
      + ProcessorApp.DEFAULT_APPLICATION_ID + "}",
      description = "Kafka Streams application id; instances with the same id share the work "
          + "(default: ${DEFAULT-VALUE}).")
  String applicationId;

  @Override
  public Integer call() throws Exception {
    if (pipeline.bootstrapServers == null) {
      throw new UserError("processor needs --bootstrap-servers (or NETPULSE_BOOTSTRAP_SERVERS); "
          + "'netpulse demo' runs everything embedded");
    }
    io.netpulse.processor.ProcessorSettings settings = tuning.settings();
    CountDownLatch stopped = new CountDownLatch(1);
    try (ProcessorApp app = ProcessorApp.start(pipeline.bootstrapServers, pipeline.topics(),
        pipeline.dataDir.resolve("streams"), applicationId, settings)) {
      Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown));
      if (app.awaitRunning(Duration.ofSeconds(60))) {
        System.err.println("processor running: " + applicationId + " on " + pipeline.bootstrapServers
            + " (" + settings.describe() + ")");
      }
      stopped.await();
    }
    return 0;
  }
}
