package io.netpulse.launcher.run;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.processor.ProcessorApp;
import io.netpulse.testbed.embedded.EmbeddedKafka;
import io.netpulse.testkit.TestHosts;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.MemberDescription;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code netpulse run --attach}: against a Kafka with no processor it stops before the first test with one line naming
 * the Kafka, the group and how to start a processor; against a running pipeline (the shared one) a small plan's
 * results arrive from that pipeline's processor, and no second member joins the processor's group during the run (a
 * second processor would rebalance the running one's partitions).
 */
@Tag("root")
class RunAttachTest {

  @RegisterExtension static final TestHosts HOSTS = new TestHosts();

  @TempDir Path dir;

  @Test
  void withoutARunningProcessorItSaysHowToStartOneAndStartsNothing() throws Exception {
    Path plan = TestPlans.write(dir, HOSTS, "attach-none", "repetitions: 1\nstop: fixed\nwarmup: 0s",
        "{ type: latency, duration: 2s, ping_count: 2 }");
    try (EmbeddedKafka kafka = EmbeddedKafka.start(dir.resolve("kafka"), 0)) {
      RunEndToEndTest.Run run = RunEndToEndTest.run(plan, "--attach", "--bootstrap-servers=" + kafka.bootstrapServers());
      assertThat(run.exit()).as(run.stderr()).isEqualTo(1);
      List<String> errors = run.stderr().lines().filter(l -> l.startsWith("netpulse: ")).toList();
      assertThat(errors).as(run.stderr()).hasSize(1);
      assertThat(errors.get(0)).contains("no processor is running against Kafka at " + kafka.bootstrapServers(),
          "consumer group " + ProcessorApp.DEFAULT_APPLICATION_ID, "netpulse processor", "docker compose up");
      assertThat(run.stderr()).doesNotContain("Exception", "plan attach-none", "dashboard ");
      assertThat(run.stdout()).isBlank();
    }
    // nothing was started on the hosts either
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  @Test
  void withARunningProcessorTheResultsArriveAndNoSecondMemberJoinsItsGroup() throws Exception {
    SharedPipeline pipeline = SharedPipeline.get();
    Set<String> before = members(pipeline.bootstrapServers());
    assertThat(before).as("the shared pipeline's processor in its group").isNotEmpty();
    Path plan = TestPlans.write(dir, HOSTS, "attach-small", "repetitions: 1\nstop: fixed\nwarmup: 1s",
        "{ type: rx_bandwidth, streams: 1, duration: 3s }");

    // the group as Kafka describes it, every 200 ms while the run lasts
    Set<String> seen = new TreeSet<>();
    AtomicInteger descriptions = new AtomicInteger();
    AtomicReference<Exception> watchFailed = new AtomicReference<>();
    Thread watcher = new Thread(() -> {
      try (Admin admin = admin(pipeline.bootstrapServers())) {
        while (!Thread.currentThread().isInterrupted()) {
          Set<String> now = members(admin);
          synchronized (seen) {
            seen.addAll(now);
          }
          descriptions.incrementAndGet();
          Thread.sleep(200);
        }
      } catch (InterruptedException done) {
        // the run is over
      } catch (Exception e) {
        watchFailed.set(e);
      }
    }, "group-watcher");
    watcher.start();
    RunEndToEndTest.Run run;
    try {
      run = RunEndToEndTest.run(plan, pipeline.runArgs());
    } finally {
      watcher.interrupt();
      watcher.join(10_000);
    }
    assertThat(watchFailed.get()).isNull();
    assertThat(run.exit()).as(run.stderr()).isZero();
    assertThat(run.stderr()).contains("attached to the running processor (group " + ProcessorApp.DEFAULT_APPLICATION_ID)
        .doesNotContain("embedded broker", "dashboard http");
    JsonNode rx = run.byTypeAndMetric().get("rx_bandwidth/rx_bps");
    assertThat(rx).as(run.stdout()).isNotNull();
    assertThat(rx.path("runs")).hasSize(1);
    assertThat(rx.path("mean").asDouble()).isPositive();

    assertThat(descriptions.get()).as("descriptions of the group during the run").isGreaterThan(5);
    synchronized (seen) {
      assertThat(seen).as("members of " + ProcessorApp.DEFAULT_APPLICATION_ID + " during the run").isEqualTo(before);
    }
    assertThat(members(pipeline.bootstrapServers())).isEqualTo(before);
    RunEndToEndTest.assertNothingLeft(HOSTS);
  }

  private static Admin admin(String bootstrap) {
    Properties p = new Properties();
    p.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
    return Admin.create(p);
  }

  private static Set<String> members(String bootstrap) throws Exception {
    try (Admin admin = admin(bootstrap)) {
      return members(admin);
    }
  }

  /** The member ids of the processor's group now. */
  private static Set<String> members(Admin admin) throws Exception {
    String group = ProcessorApp.DEFAULT_APPLICATION_ID;
    Set<String> ids = new TreeSet<>();
    for (MemberDescription m : admin.describeConsumerGroups(List.of(group)).describedGroups().get(group)
        .get(10, TimeUnit.SECONDS).members()) {
      ids.add(m.consumerId());
    }
    return ids;
  }
}
