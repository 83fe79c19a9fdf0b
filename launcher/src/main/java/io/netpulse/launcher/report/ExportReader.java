package io.netpulse.launcher.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.netpulse.common.Topics;
import io.netpulse.common.event.ToolOutputEvent;
import io.netpulse.common.kafka.KafkaConnection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads one execution off the topics into an {@link Archive}: the report's own reading (results, runs, cpu, the
 * SUT's 1-s rates), then each of its runs' tool output, and the plan's labels and hosts' facts where the run events
 * carry them ({@code labels}, {@code hostFacts}: read as plain JSON so that events without them, from before they
 * existed, export as well).
 */
public final class ExportReader {

  private final Topics topics;
  private final ReportReader reports;
  private final TopicSnapshot snapshot;

  public ExportReader(KafkaConnection kafka, Topics topics, Duration timeout) {
    this.topics = topics;
    this.reports = new ReportReader(kafka, topics, timeout);
    this.snapshot = new TopicSnapshot(kafka, timeout);
  }

  public Archive read(String execution) {
    PlanReport report = reports.readExecution(execution);
    Set<String> runs = new HashSet<>();
    for (MetricSection s : report.sections()) {
      if (s.result().runs() != null) {
        runs.addAll(s.result().runs());
      }
      s.repetitions().forEach(r -> runs.add(r.run()));
    }
    List<ToolOutputEvent> outputs = new ArrayList<>();
    snapshot.read(topics.toolOutput(), ToolOutputEvent.class, (key, t) -> {
      if (t != null && runs.contains(t.run())) {
        outputs.add(t);
      }
    });
    outputs.sort(Comparator.comparing(ToolOutputEvent::run).thenComparingLong(ToolOutputEvent::started));
    Map<String, String> labels = new LinkedHashMap<>();
    boolean[] labelled = {false};
    Map<String, JsonNode> facts = new LinkedHashMap<>(); // one entry per host (its latest facts)
    snapshot.read(topics.runs(), JsonNode.class, (key, e) -> {
      if (e == null || !runs.contains(e.path("run").asText(null))) {
        return;
      }
      if (e.path("labels").isObject()) {
        labelled[0] = true;
        e.path("labels").fields().forEachRemaining(f -> labels.put(f.getKey(), f.getValue().asText()));
      }
      for (JsonNode host : e.path("hostFacts")) {
        String name = host.path("host").asText(host.path("name").asText(Integer.toString(facts.size())));
        facts.put(name, host);
      }
    });
    ObjectNode hostFacts = null;
    if (!facts.isEmpty()) {
      hostFacts = JsonNodeFactory.instance.objectNode();
      facts.forEach(hostFacts::set);
    }
    return new Archive(Archive.FORMAT, Archive.SCHEMA, report.readAtMs(), report.plan(), execution,
        report.resultsTopic(), labelled[0] ? labels : null, hostFacts, report.sections(), outputs);
  }

  /** Records skipped because they were not netpulse events (another producer on the topics). */
  public int unreadableRecords() {
    return reports.unreadableRecords() + snapshot.unreadable();
  }
}
