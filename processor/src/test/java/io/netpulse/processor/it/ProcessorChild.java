package io.netpulse.processor.it;

import io.netpulse.common.Topics;
import io.netpulse.common.kafka.KafkaConnection;
import io.netpulse.processor.ProcessorApp;
import java.nio.file.Path;
import java.time.Duration;

/** The processor in a JVM of its own, so a test can kill it with SIGKILL mid-work. */
public final class ProcessorChild {

  private ProcessorChild() {}

  public static void main(String[] args) throws Exception {
    ProcessorApp app = ProcessorApp.start(KafkaConnection.plain(args[0]), Topics.defaults(), Path.of(args[1]), args[2]);
    if (app.awaitRunning(Duration.ofSeconds(90))) {
      System.out.println("RUNNING");
      System.out.flush();
    }
    Thread.sleep(Long.MAX_VALUE);
  }
}
