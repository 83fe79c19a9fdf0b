package io.netpulse.collector;

import java.nio.file.Path;

/** A second process for {@link DataDirLockTest}: locks the dir given, says so, holds it until stdin closes. */
public final class DataDirLockHolder {

  private DataDirLockHolder() {}

  public static void main(String[] args) throws Exception {
    try (DataDirLock lock = DataDirLock.acquire(Path.of(args[0]))) {
      System.out.println("locked");
      System.out.flush();
      while (System.in.read() != -1) {
        // wait for the test to close our stdin
      }
    }
  }
}
