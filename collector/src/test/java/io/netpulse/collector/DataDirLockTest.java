package io.netpulse.collector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One collector per data dir, enforced by an OS file lock. */
@Tag("unit")
class DataDirLockTest {

  @TempDir Path dir;

  @Test
  void secondLockInTheSameProcessFailsNamingTheDirAndWorksAgainAfterRelease() throws Exception {
    Path data = dir.resolve("data");
    try (DataDirLock first = DataDirLock.acquire(data)) {
      assertThat(first.file()).isEqualTo(data.resolve(DataDirLock.FILE_NAME));
      assertThat(Files.readString(first.file()).strip()).isEqualTo(Long.toString(ProcessHandle.current().pid()));
      assertThatThrownBy(() -> DataDirLock.acquire(data))
          .isInstanceOf(DataDirLock.DataDirUnavailableException.class)
          .hasMessageContaining("data dir " + data + " is in use by another collector")
          .hasMessageContaining("--data-dir");
    }
    try (DataDirLock again = DataDirLock.acquire(data)) {
      assertThat(again.file()).exists();
    }
  }

  @Test
  void lockHeldByAnotherProcessIsRefusedWithItsPid() throws Exception {
    Path data = dir.resolve("shared");
    Path java = Path.of(System.getProperty("java.home"), "bin", "java");
    Process holder = new ProcessBuilder(List.of(java.toString(), "-cp", System.getProperty("java.class.path"),
        DataDirLockHolder.class.getName(), data.toString())).redirectErrorStream(true).start();
    try {
      BufferedReader out = new BufferedReader(new InputStreamReader(holder.getInputStream(), StandardCharsets.UTF_8));
      assertThat(out.readLine()).isEqualTo("locked");
      assertThatThrownBy(() -> DataDirLock.acquire(data))
          .isInstanceOf(DataDirLock.DataDirUnavailableException.class)
          .hasMessageContaining("data dir " + data + " is in use by another collector (pid " + holder.pid() + " holds");
    } finally {
      holder.getOutputStream().close(); // the holder exits when its stdin closes
      if (!holder.waitFor(10, TimeUnit.SECONDS)) {
        holder.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
      }
    }
    try (DataDirLock mine = DataDirLock.acquire(data)) { // the kernel released the dead holder's lock
      assertThat(mine.file()).exists();
    }
  }

  @Test
  void unusableDirIsAClearError() throws Exception {
    Path file = dir.resolve("plain-file");
    Files.writeString(file, "x");
    assertThatThrownBy(() -> DataDirLock.acquire(file.resolve("sub")))
        .isInstanceOf(DataDirLock.DataDirUnavailableException.class)
        .hasMessageStartingWith("cannot use data dir " + file.resolve("sub"));
  }
}
