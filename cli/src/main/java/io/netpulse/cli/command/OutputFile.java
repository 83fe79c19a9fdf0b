package io.netpulse.cli.command;

import io.netpulse.launcher.UserError;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.function.Consumer;

/**
 * Where a command's {@code -o/--output FILE} goes: {@code -} is stdout. A file is written whole or not at all (a
 * sibling temporary file moved over it), so a reader never sees half a result table.
 */
record OutputFile(String target) {

  static final String STDOUT = "-";

  boolean isStdout() {
    return target.equals(STDOUT);
  }

  Path path() {
    return Path.of(target);
  }

  /** Before a long run: a file whose directory is missing or read-only is a usage error now, not after an hour. */
  void checkWritable() {
    if (isStdout()) {
      return;
    }
    Path dir = path().toAbsolutePath().getParent();
    if (dir == null || !Files.isDirectory(dir)) {
      throw new UserError("cannot write " + target + ": directory " + dir + " does not exist (choose another --output)");
    }
    if (!Files.isWritable(dir) || (Files.exists(path()) && !Files.isWritable(path()))) {
      throw new UserError("cannot write " + target + ": not writable (choose another --output)");
    }
  }

  /** Writes {@code body} to stdout or to the file; an unwritable file is a {@link UserError} naming it. */
  void write(PrintWriter stdout, Consumer<PrintWriter> body) {
    if (isStdout()) {
      body.accept(stdout);
      stdout.flush();
      return;
    }
    StringWriter text = new StringWriter();
    try (PrintWriter w = new PrintWriter(text)) {
      body.accept(w);
    }
    Path file = path().toAbsolutePath();
    try {
      Path tmp = Files.createTempFile(file.getParent(), "." + file.getFileName(), ".tmp");
      try {
        Files.writeString(tmp, text.toString(), StandardCharsets.UTF_8);
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
      } finally {
        Files.deleteIfExists(tmp);
      }
    } catch (IOException e) {
      throw new UserError("cannot write " + target + ": " + e + " (choose another --output)");
    }
  }
}
