package io.netpulse.launcher.services;

import io.netpulse.testbed.embedded.EmbeddedQuestDb;
import java.nio.file.Path;

/**
 * The project's embedded QuestDB as a store process of its own: {@code StoreChild ROOT_DIR HTTP_PORT}. Prints
 * {@code READY url} once it serves HTTP and runs until stopped; SIGTERM closes it cleanly, and a new one on the same
 * root dir and port has the same tables.
 */
public final class StoreChild {

  private StoreChild() {}

  public static void main(String[] args) throws InterruptedException {
    EmbeddedQuestDb store = EmbeddedQuestDb.start(Path.of(args[0]), Integer.parseInt(args[1]));
    ChildServices.readyUntilStopped(store.url(), store::close, "store-child-stop");
  }
}
