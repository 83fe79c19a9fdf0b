package io.netpulse.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.commons.io.FileUtils;
import picocli.CommandLine.Option;

/** The benches' {@code --data-dir}: each run's broker and stream state go in a directory made under it and removed after. */
final class BenchScratch {

  @Option(names = "--data-dir", defaultValue = "${env:NETPULSE_DATA_DIR:-./.netpulse}",
      description = "a scratch directory for the broker and stream state is made here and removed after "
          + "(default: ${DEFAULT-VALUE}).")
  Path dataDir;

  /** A new directory under {@code --data-dir}, removed with everything in it when closed. */
  Dir create(String prefix) throws IOException {
    Files.createDirectories(dataDir);
    return new Dir(Files.createTempDirectory(dataDir, prefix));
  }

  record Dir(Path path) implements AutoCloseable {
    @Override
    public void close() {
      FileUtils.deleteQuietly(path.toFile());
    }
  }
}
