package io.netpulse.launcher.compare;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.launcher.cli.UserError;
import io.netpulse.launcher.report.TopicSnapshot;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Supplier;

/**
 * Results from the results topic, for an execution id, a plan's name (its latest execution) or a label selector
 * ({@code instance_type=c7.large[,region=x]}: the latest execution whose labels hold every pair). Results are read as
 * plain JSON and grouped by their {@code execution} field, so that both the compacted per-plan layout and results
 * kept per execution are read; {@code labels} are used when the results carry them.
 *
 * @param snapshot  the topic reader (opened on first use, shared by both sides)
 * @param topic     the results topic's name
 * @param selector  what the user gave
 */
public record KafkaResults(Supplier<TopicSnapshot> snapshot, String topic, String selector)
    implements ResultSource {

  /** One execution's results as the topic has them now. */
  private static final class Execution {
    String plan;
    String id;
    long latestTs;
    final Map<String, String> labels = new TreeMap<>();
    final Map<String, ExecutionResults.Metric> metrics = new LinkedHashMap<>();
  }

  @Override
  public ExecutionResults read() {
    Map<String, Execution> executions = new LinkedHashMap<>();
    Map<String, String[]> byRecordKey = new HashMap<>(); // record key → execution, test/metric
    snapshot.get().read(topic, JsonNode.class, (key, r) -> {
      if (r == null) {
        String[] was = byRecordKey.remove(key); // a tombstone
        if (was != null) {
          executions.get(was[0]).metrics.remove(was[1]);
        }
        return;
      }
      String plan = r.path("plan").asText(null);
      String test = r.path("test").asText(null);
      String metric = r.path("metric").asText(null);
      if (plan == null || test == null || metric == null || !r.path("values").isObject()) {
        return;
      }
      String id = r.path("execution").asText(plan); // older producers named no execution: the plan stands for it
      Execution e = executions.computeIfAbsent(id, k -> new Execution());
      e.plan = plan;
      e.id = r.path("execution").asText(null);
      e.latestTs = Math.max(e.latestTs, r.path("ts").asLong());
      if (r.path("labels").isObject()) {
        r.path("labels").fields().forEachRemaining(f -> e.labels.put(f.getKey(), f.getValue().asText()));
      }
      TreeMap<Integer, Double> values = new TreeMap<>();
      r.path("values").fields().forEachRemaining(f -> {
        if (f.getKey().matches("\\d{1,9}") && f.getValue().isNumber()) {
          values.put(Integer.parseInt(f.getKey()), f.getValue().asDouble());
        }
      });
      ExecutionResults.Metric m = new ExecutionResults.Metric(test, metric, r.path("unit").asText(null), values);
      e.metrics.put(m.key(), m); // a later result of the same test and metric has more repetitions
      byRecordKey.put(key, new String[] {id, m.key()});
    });
    Execution chosen = choose(new ArrayList<>(executions.values()));
    return new ExecutionResults(topic + ": " + selector, chosen.plan, chosen.id, chosen.labels,
        List.copyOf(chosen.metrics.values()));
  }

  private Execution choose(List<Execution> all) {
    all.removeIf(e -> e.metrics.isEmpty());
    if (selector.contains("=")) {
      Map<String, String> wanted = labels(selector);
      return latest(all.stream().filter(e -> e.labels.entrySet().containsAll(wanted.entrySet())).toList(),
          "no execution on " + topic + " has the labels " + selector + " (labels come from the plan's 'labels:')");
    }
    List<Execution> byId = all.stream().filter(e -> selector.equals(e.id)).toList();
    if (!byId.isEmpty()) {
      return byId.get(0);
    }
    return latest(all.stream().filter(e -> selector.equals(e.plan)).toList(), "no results for '" + selector + "' on "
        + topic + ": not a file, an execution id, a plan name or a label selector (KEY=VALUE) that the topic holds "
        + "(check --bootstrap-servers and --topic-prefix)");
  }

  private static Execution latest(List<Execution> candidates, String none) {
    return candidates.stream().max(java.util.Comparator.comparingLong(e -> e.latestTs))
        .orElseThrow(() -> new UserError(none));
  }

  /** {@code k=v,k2=v2} → map; an empty key or value is a user error. */
  static Map<String, String> labels(String selector) {
    Map<String, String> m = new TreeMap<>();
    for (String pair : selector.split(",")) {
      int eq = pair.indexOf('=');
      if (eq <= 0 || eq == pair.length() - 1) {
        throw new UserError("label selector '" + selector + "': expected KEY=VALUE[,KEY=VALUE...], got '" + pair + "'");
      }
      m.put(pair.substring(0, eq).strip(), pair.substring(eq + 1).strip());
    }
    return m;
  }
}
