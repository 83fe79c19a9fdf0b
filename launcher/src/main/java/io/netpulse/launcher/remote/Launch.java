package io.netpulse.launcher.remote;

import io.netpulse.launcher.procedure.RemoteCommand;
import java.util.function.Consumer;

/**
 * One instance of a {@link RemoteBatch}: its label (e.g. {@code netperf#5}), its command and where its stdout lines
 * go as they come (null: only kept).
 */
public record Launch(String label, RemoteCommand command, Consumer<String> onLine) {}
