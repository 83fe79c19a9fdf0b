package io.netpulse.testkit;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Where a test JVM's CPU goes, class by class: with {@code -Dnetpulse.test.cpu.log=FILE} (and JUnit's extension
 * autodetection on) each test class appends one line, its wall seconds and the seconds of CPU this JVM used meanwhile
 * (its own threads: brokers, processors, SSH; not child processes). For deciding what to make cheaper in CI, whose
 * time on two cores is CPU-bound; off (a no-op) unless the property is set.
 */
public final class ClassCpuLog implements BeforeAllCallback, AfterAllCallback {

  private static final String PROPERTY = "netpulse.test.cpu.log";

  private long wallStart;
  private long cpuStart;

  @Override
  public void beforeAll(ExtensionContext context) {
    wallStart = System.nanoTime();
    cpuStart = cpu();
  }

  @Override
  public void afterAll(ExtensionContext context) throws IOException {
    String file = System.getProperty(PROPERTY);
    if (file == null || cpuStart < 0) {
      return;
    }
    String line = String.format(Locale.ROOT, "%.1f %.1f %d %s%n", (cpu() - cpuStart) / 1e9,
        (System.nanoTime() - wallStart) / 1e9, ProcessHandle.current().pid(), context.getRequiredTestClass().getName());
    Files.writeString(Path.of(file), line, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
  }

  private static long cpu() {
    if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os) {
      return os.getProcessCpuTime();
    }
    return -1;
  }
}
