package io.netpulse.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import io.netpulse.testbed.embedded.EmbeddedKafka;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code netpulse report} started again and again on the data dir of an earlier embedded broker, as a user reads an
 * earlier run: the broker's restart prints nothing but the report's own line. A long metadata log (many topics) makes
 * the controller's early self-registration, which Kafka logs as an ERROR with a NotControllerException stack trace,
 * likely on each start (three of four starts here before it was silenced; this test failed on its first).
 */
@Tag("kafka")
class EmbeddedRestartQuietTest {

  @TempDir Path dir;

  @Test
  void reportsOnAnEarlierDataDirPrintNoStackTrace() throws Exception {
    Path data = dir.resolve("data");
    try (EmbeddedKafka earlier = EmbeddedKafka.start(data, 0);
        Admin admin = Admin.create(earlier.connection().clientProperties())) {
      List<NewTopic> many = new ArrayList<>();
      for (int i = 0; i < 1000; i++) {
        many.add(new NewTopic("filler-" + i, 3, (short) 1));
      }
      admin.createTopics(many).all().get(120, TimeUnit.SECONDS);
      earlier.createTopics(io.netpulse.common.Topics.defaults(), 1);
    }
    for (int start = 1; start <= 2; start++) {
      ChildNetpulse r = ChildNetpulse.run(dir.resolve("report-" + start + ".txt"), 180, Map.of(),
          "report", "no-such-plan", "--format", "md", "--data-dir", data.toString(), "--timeout", "60");
      assertThat(r.output().strip()).as("start " + start).isEqualTo("netpulse: no results for plan 'no-such-plan' "
          + "on netpulse.results (run it first with 'netpulse run', or check the plan name, --bootstrap-servers and "
          + "--topic-prefix)");
      assertThat(r.exit()).isEqualTo(2);
    }
  }
}
