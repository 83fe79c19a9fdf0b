package io.netpulse.dashboard;

import io.netpulse.testbed.DirectoryTrees;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * One embedded broker for all the tests of a class, as {@code @RegisterExtension static final ClassBroker}: started
 * before the first test, closed and its data dir deleted after the last. A broker takes seconds to start, a
 * dashboard on it much less, so tests that each start a dashboard of their own (on topics of their own prefix)
 * share one.
 */
final class ClassBroker implements BeforeAllCallback, AfterAllCallback {

  private Path dataDir;
  private EmbeddedKafka kafka;

  @Override
  public void beforeAll(ExtensionContext context) throws IOException {
    dataDir = Files.createTempDirectory("dashboard-broker");
    kafka = EmbeddedKafka.start(dataDir, 0);
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    try {
      if (kafka != null) {
        kafka.close();
      }
    } finally {
      if (dataDir != null) {
        DirectoryTrees.deleteQuietly(dataDir);
      }
    }
  }

  EmbeddedKafka kafka() {
    if (kafka == null) {
      throw new IllegalStateException("the class's broker is not running: register ClassBroker as a static field");
    }
    return kafka;
  }
}
