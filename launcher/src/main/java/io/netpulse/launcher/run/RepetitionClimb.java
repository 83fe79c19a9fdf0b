package io.netpulse.launcher.run;

import io.netpulse.common.event.RunEvent;
import io.netpulse.launcher.plan.TestSpec;
import io.netpulse.common.catalog.TestType;
import io.netpulse.launcher.plan.Tool;
import io.netpulse.launcher.remote.RemoteProcess;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** What ended a concurrent-connections repetition's climb, read from its tools once they have all ended. */
final class RepetitionClimb {

  private RepetitionClimb() {}

  /** Null for other tests, and when no tool said anything (it did not start). */
  static RunEvent.Climb of(TestSpec test, Collection<RemoteProcess> servers, Collection<RemoteProcess> clients) {
    if (test.type() != TestType.CONCURRENT_CONNECTIONS) {
      return null;
    }
    boolean c1000k = test.tool() == Tool.C1000K;
    List<Climbs.Output> outputs = new ArrayList<>();
    servers.forEach(p -> outputs.add(new Climbs.Output(p.host(), true, c1000k, p.stdout())));
    clients.forEach(p -> outputs.add(new Climbs.Output(p.host(), false, c1000k, p.stdout())));
    return Climbs.of(outputs).orElse(null);
  }
}
