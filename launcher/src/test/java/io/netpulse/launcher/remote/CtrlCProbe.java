package io.netpulse.launcher.remote;

import io.netpulse.launcher.plan.HostSpec;
import io.netpulse.launcher.procedure.RemoteCommand;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/**
 * A launcher stand-in for {@link RemoteHostsTest}: connects (args: address identity known_hosts), starts
 * {@code sleep 1000}, prints its PID, and stops everything from a shutdown hook as the run engine will on Ctrl-C.
 */
public final class CtrlCProbe {

  public static void main(String[] args) throws Exception {
    HostSpec spec = new HostSpec("sut", args[0], "root", 22, Path.of(args[1]), Path.of(args[2]), false, null);
    RemoteHosts hosts = RemoteHosts.connect(List.of(spec), Duration.ofSeconds(5));
    RemoteProcess sleep = hosts.host("sut").start("sleeper", RemoteCommand.of("sleep", "1000"), null);
    Runtime.getRuntime().addShutdownHook(new Thread(() -> {
      hosts.stopAll(Duration.ofSeconds(2));
      System.out.println("hook: alive=" + sleep.isAlive() + " exit=" + sleep.awaitExit(Duration.ZERO));
      System.out.flush();
    }));
    System.out.println("pid=" + sleep.pid());
    System.out.flush();
    Thread.sleep(60_000);
  }
}
