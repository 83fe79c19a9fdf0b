package io.netpulse.launcher.ops;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** Temporary, not committed: what the processor logs while the broker is away. */
class TmpBrokerOutageCheck {
  @Test
  void brokerDown() throws Exception {
    Path dir = Path.of("target", "tmp-broker-outage").toAbsolutePath();
    Files.createDirectories(dir);
    try (PipelineSession s = PipelineSession.start(dir)) {
      ChildJvm.sleep(20_000);
      System.out.println("HEALTH before: " + Files.readString(s.healthFile()));
      ChildJvm broker = s.broker();
      broker.sigkill();
      broker.awaitExit(Duration.ofSeconds(20));
      broker.close();
      ChildJvm.sleep(25_000);
      System.out.println("HEALTH during: " + Files.readString(s.healthFile()));
      s.startBroker();
      ChildJvm.sleep(30_000);
      System.out.println("HEALTH after: " + Files.readString(s.healthFile()));
      System.out.println("PROCESSOR LOG:\n" + s.processor().logText());
      System.out.println("COLLECTOR LOG:\n" + s.collector().tail(30));
    }
  }
}
