package io.netpulse.launcher.plan;

import java.nio.file.Path;

/**
 * A host of the plan, reached over SSH. {@code identity} and {@code knownHosts} are local files,
 * resolved against the plan's directory; {@code java} is the remote Java to start netpulse's own
 * tools with (null: {@code java} on the remote PATH).
 */
public record HostSpec(
    String name,
    String address,
    String user,
    int port,
    Path identity,
    Path knownHosts,
    boolean acceptNewHostKeys,
    String java) {}
