package io.netpulse.cli.command;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A one-line status file rewritten every few seconds, for container health checks: the processor
 * serves no HTTP, so a check reads its Kafka Streams state and the file's age (a hung JVM stops
 * rewriting it). Written to a temporary file and moved, so that a reader never sees half a line.
 */
record HealthFile(Path path) {

  /** Writes {@code status}; a failure is reported once per call and never stops the caller. */
  void write(String status) {
    Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
    try {
      Path parent = path.toAbsolutePath().getParent();
      if (parent != null) {
        Files.createDirectories(parent);
      }
      Files.writeString(tmp, status + "\n");
      Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    } catch (IOException e) {
      System.err.println("netpulse: cannot write --health-file " + path + ": " + e.getMessage());
    }
  }
}
