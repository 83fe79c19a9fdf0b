package io.netpulse.launcher.compare;

import com.fasterxml.jackson.databind.JsonNode;
import io.netpulse.common.compare.ExecutionResults;
import io.netpulse.launcher.UserError;
import io.netpulse.launcher.report.Archive;
import io.netpulse.launcher.report.MetricSection;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Results from a file: an archive of {@code netpulse export}, or what {@code netpulse run --format json} printed (an
 * array with one entry per test and metric: {@code test}, {@code metric}, {@code unit}, {@code runs}, and
 * {@code repetitions} naming each run's repetition).
 */
public record FileResults(Path file) implements ResultSource {

  @Override
  public ExecutionResults read() {
    JsonNode json = Archive.readJson(file);
    if (Archive.is(json)) {
      return fromArchive(Archive.of(json, file));
    }
    if (json.isArray()) {
      return fromRunOutput(json);
    }
    throw new UserError(file + ": neither a netpulse archive (netpulse export) nor the output of 'netpulse run "
        + "--format json' (a JSON array of results)");
  }

  private ExecutionResults fromArchive(Archive a) {
    List<ExecutionResults.Metric> metrics = new ArrayList<>();
    for (MetricSection s : a.sections()) {
      metrics.add(new ExecutionResults.Metric(s.test(), s.metric(), s.unit(), s.result().values()));
    }
    return new ExecutionResults(file.toString(), a.plan(), a.execution(), a.labels(), metrics);
  }

  private ExecutionResults fromRunOutput(JsonNode array) {
    List<ExecutionResults.Metric> metrics = new ArrayList<>();
    Map<String, String> labels = new LinkedHashMap<>();
    String plan = null;
    String execution = null;
    int index = 0;
    for (JsonNode r : array) {
      index++;
      if (!r.isObject()) {
        throw new UserError(file + ": entry " + index + " is not an object: not the output of 'netpulse run "
            + "--format json'");
      }
      if (r.has("error")) {
        continue; // a test that could not run has no values
      }
      String test = text(r, "test", index);
      String metric = text(r, "metric", index);
      JsonNode runs = r.path("runs");
      if (!runs.isArray()) {
        throw new UserError(file + ": entry " + index + " (" + test + "/" + metric + ") has no \"runs\" array of "
            + "values: not the output of 'netpulse run --format json'");
      }
      metrics.add(new ExecutionResults.Metric(test, metric, r.path("unit").asText(null), values(r, runs, index)));
      // newer run output may name them per entry; older has neither
      plan = r.hasNonNull("plan") ? r.get("plan").asText() : plan;
      execution = r.hasNonNull("execution") ? r.get("execution").asText() : execution;
      if (r.path("labels").isObject()) {
        r.path("labels").fields().forEachRemaining(f -> labels.put(f.getKey(), f.getValue().asText()));
      }
    }
    return new ExecutionResults(file.toString(), plan, execution, labels, metrics);
  }

  /** Each value under its repetition's number: those of the repetitions that did not fail, in order. */
  private TreeMap<Integer, Double> values(JsonNode r, JsonNode runs, int index) {
    List<Integer> numbers = new ArrayList<>();
    for (JsonNode rep : r.path("repetitions")) {
      if (rep.path("failure").isNull() || rep.path("failure").isMissingNode()) {
        numbers.add(rep.path("repetition").asInt(numbers.size() + 1));
      }
    }
    TreeMap<Integer, Double> values = new TreeMap<>();
    int i = 0;
    for (JsonNode v : runs) {
      if (!v.isNumber()) {
        throw new UserError(file + ": entry " + index + " has a value in \"runs\" that is not a number: " + v);
      }
      values.put(numbers.size() == runs.size() ? numbers.get(i) : i + 1, v.asDouble());
      i++;
    }
    return values;
  }

  private String text(JsonNode r, String field, int index) {
    JsonNode v = r.path(field);
    if (!v.isTextual() || v.asText().isBlank()) {
      throw new UserError(file + ": entry " + index + " has no \"" + field + "\": not the output of 'netpulse run "
          + "--format json'");
    }
    return v.asText();
  }
}
