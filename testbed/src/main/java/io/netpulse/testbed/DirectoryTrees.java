package io.netpulse.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.stream.Stream;

/** Deleting a test's temporary directory with what is in it. */
public final class DirectoryTrees {

  private DirectoryTrees() {}

  /**
   * Deletes {@code dir} and everything below it, deepest first; best effort (a file something still holds, or one
   * that vanishes under the walk, is left): what is left is a temporary file, not a failure. A missing dir is fine.
   */
  public static void deleteQuietly(Path dir) {
    if (dir == null || !Files.exists(dir)) {
      return;
    }
    try (Stream<Path> paths = Files.walk(dir)) {
      paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException | UncheckedIOException ignored) {
      // the walk throws unchecked when a file vanishes under it
    }
  }
}
