package io.netpulse.launcher.remote;

import io.netpulse.launcher.procedure.RemoteCommand;
import java.util.function.Consumer;

/**
 * One instance of a {@link RemoteBatch}: its label (e.g. {@code netperf#5}), its command, where its stdout lines
 * go as they come (null: only kept) and, if not null, the text on its stdout at which the host pauses it (SIGSTOP to
 * its group, before the line is sent on: the launcher reads the line once it is paused).
 */
public record Launch(String label, RemoteCommand command, Consumer<String> onLine, String pauseOn) {

  public Launch(String label, RemoteCommand command, Consumer<String> onLine) {
    this(label, command, onLine, null);
  }
}
