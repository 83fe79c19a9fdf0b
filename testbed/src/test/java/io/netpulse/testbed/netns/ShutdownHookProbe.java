package io.netpulse.testbed.netns;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/** Run in a child JVM by {@link HostNetworkShutdownTest} and the stale-network tests: builds a network, prints its names, waits to be signalled. */
public final class ShutdownHookProbe {
    private ShutdownHookProbe() {
    }

    /** Starts the probe in a child JVM on this JVM's class path; its first stdout line names what it built. */
    public static Process start() throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        return new ProcessBuilder(java.toString(), "-cp", System.getProperty("java.class.path"),
                ShutdownHookProbe.class.getName()).redirectError(ProcessBuilder.Redirect.INHERIT).start();
    }

    public static void main(String[] args) throws Exception {
        HostNetwork net = HostNetwork.create("probe", 2);
        Process sleeper = net.start(net.hosts().get(0), List.of("sleep", "300"));
        System.out.println(String.join(" ", net.bridge(), net.hosts().get(0).namespace(),
                net.hosts().get(1).namespace(), net.hosts().get(0).bridgePort(), net.hosts().get(1).bridgePort(),
                Long.toString(sleeper.pid())));
        System.out.flush();
        Thread.sleep(60_000); // never closes on its own: only the shutdown hook can clean up
    }
}
