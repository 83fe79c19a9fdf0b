package io.netpulse.launcher.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.processor.store.StorePoints;
import com.influxdb.client.write.Point;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The provisioned Grafana dashboard asks only for what the processor writes: the measurements, tags and
 * fields are taken from real points that {@link StorePoints} builds, not from a list kept by hand.
 */
@Tag("unit")
class GrafanaDashboardTest {

  static final String DASHBOARD = "deploy/grafana/dashboards/netpulse.json";
  static final String DATASOURCES = "deploy/grafana/provisioning/datasources/influxdb.yaml";
  static final String PROVIDERS = "deploy/grafana/provisioning/dashboards/netpulse.yaml";
  /** Columns every Flux table has. */
  static final Set<String> FLUX_COLUMNS = Set.of("_time", "_value", "_field", "_measurement", "_start", "_stop");

  /** Written layout by measurement: tags and fields. */
  record Layout(Set<String> tags, Set<String> fields) {}

  static final Map<String, Layout> WRITTEN = new TreeMap<>();

  @BeforeAll
  static void layoutFromTheCode() {
    Point result = StorePoints.result(new ResultEvent(ResultEvent.SCHEMA, "p", "t", "rx_bps", "bit/s",
        new java.util.TreeMap<>(Map.of(1, 1.0, 2, 2.0, 3, 3.0)), 3, 2.0, 1.0, 2.48, List.of("h1"),
        List.of("r1", "r2", "r3"), 3000, "e1", Map.of("instance_type", "c7.large"), List.of(), true, 3, 3, null, null));
    // net and netstat from lines as sar -n DEV and ss -s print them here (the tools' fixtures), through the parsers
    List<io.netpulse.common.event.Sample> parsed = new ArrayList<>();
    parsed.addAll(parsed("sar-dev",
        "05:13:32        npp-a   1538.24   8058.82     99.24 467847.96      0.00      0.00      0.00     38.33"));
    parsed.addAll(parsed("ss-summary", "TCP:   28 (estab 0, closed 28, orphaned 0, timewait 22)"));
    List<Point> points = new ArrayList<>(List.of(result));
    io.netpulse.common.event.WideSample.group(parsed, io.netpulse.common.catalog.Sources::measurementOf)
        .forEach(w -> points.add(StorePoints.wide(w)));
    for (Point p : points) {
      // line protocol: measurement,tag=v,... field=v,... time (the values here have no spaces or commas)
      String[] parts = p.toLineProtocol().split(" ");
      String[] head = parts[0].split(",");
      Set<String> tags = new TreeSet<>();
      for (int i = 1; i < head.length; i++) {
        tags.add(head[i].split("=")[0]);
      }
      Set<String> fields = new TreeSet<>();
      for (String f : parts[1].split(",")) {
        fields.add(f.split("=")[0]);
      }
      WRITTEN.put(head[0], new Layout(tags, fields));
    }
  }

  private static List<io.netpulse.common.event.Sample> parsed(String source, String line) {
    var result = io.netpulse.tools.Parsers.lineParser(source).orElseThrow()
        .parseLine(line, 1, io.netpulse.tools.parse.ParseContext.streamed(1_796_404_626_000L));
    assertThat(result.errors()).isEmpty();
    return result.samples().stream().map(x -> x.withOrigin("h1", "r1", source)).toList();
  }

  @Test
  void everyQueryNamesAMeasurementTagsAndFieldsTheProcessorWrites() {
    JsonNode dashboard = dashboard();
    List<String> problems = new ArrayList<>();
    List<String[]> queries = new ArrayList<>(); // where, query
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        queries.add(new String[] {"panel '" + panel.path("title").asText() + "' target " + target.path("refId").asText(),
            target.path("query").asText()});
      }
    }
    for (JsonNode variable : dashboard.path("templating").path("list")) {
      if ("query".equals(variable.path("type").asText())) {
        queries.add(new String[] {"variable '" + variable.path("name").asText() + "'", variable.path("query").asText()});
      }
    }
    if (queries.isEmpty()) {
      problems.add(DASHBOARD + ": no queries");
    }
    for (String[] q : queries) {
      check(DASHBOARD + ": " + q[0], q[1], problems);
    }
    report(problems);
  }

  /**
   * The result tables take the newest point whole (fields pivoted into one row before choosing it), not {@code last()}
   * of each field on its own, which put one execution's mean beside another's rep_3; a panel draws results over time
   * by a label chosen from the written label_* tags.
   */
  @Test
  void resultTablesTakeWholePointsAndAPanelShowsResultsOverTimeByLabel() {
    JsonNode dashboard = dashboard();
    List<String> problems = new ArrayList<>();
    boolean byLabel = false;
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        String q = target.path("query").asText();
        if (!q.contains("netpulse_result")) {
          continue;
        }
        if ("table".equals(panel.path("type").asText())) {
          int pivot = q.indexOf("pivot(");
          int last = q.indexOf("last(");
          if (pivot < 0 || last < 0 || last < pivot || !q.contains("group(columns: [\"plan\", \"test\", \"metric\"")) {
            problems.add("panel '" + panel.path("title").asText() + "': the newest row per plan/test/metric must be "
                + "chosen after the pivot (a last() per field mixes executions)");
          }
        }
        byLabel |= "timeseries".equals(panel.path("type").asText()) && q.contains("\"${label}\"")
            && q.contains("\"execution\"");
      }
    }
    if (!byLabel) {
      problems.add("no timeseries panel of netpulse_result grouped by execution and ${label}");
    }
    JsonNode label = null;
    for (JsonNode v : dashboard.path("templating").path("list")) {
      if ("label".equals(v.path("name").asText())) {
        label = v;
      }
    }
    if (label == null || !label.path("query").asText().contains("measurementTagKeys")
        || !label.path("query").asText().contains(StorePoints.LABEL_TAG_PREFIX)) {
      problems.add("variable 'label' must list the tag keys " + StorePoints.LABEL_TAG_PREFIX + "* of netpulse_result");
    }
    assertThat(WRITTEN.get("netpulse_result").tags()).contains("execution", "label_instance_type");
    report(problems);
  }

  @Test
  void panelsUseTheProvisionedDataSourceAndTheProviderReadsTheMountedFolder() {
    List<String> problems = new ArrayList<>();
    Set<String> uids = new HashSet<>();
    RepoFiles.yaml(DATASOURCES).path("datasources").forEach(d -> uids.add(d.path("uid").asText()));
    for (JsonNode panel : dashboard().path("panels")) {
      String uid = panel.path("datasource").path("uid").asText();
      if (!uids.contains(uid)) {
        problems.add(DASHBOARD + ": panel '" + panel.path("title").asText() + "' datasource uid '" + uid
            + "' is not one " + DATASOURCES + " provisions " + uids);
      }
    }
    String path = RepoFiles.yaml(PROVIDERS).path("providers").path(0).path("options").path("path").asText();
    List<String> mounts = new ArrayList<>();
    RepoFiles.yaml(ComposeFileTest.FILE).path("services").path("grafana").path("volumes")
        .forEach(v -> mounts.add(v.asText()));
    if (mounts.stream().noneMatch(m -> m.startsWith("./deploy/grafana/dashboards:" + path))) {
      problems.add(ComposeFileTest.FILE + ": service 'grafana' volumes: ./deploy/grafana/dashboards is not mounted at "
          + path + ", where " + PROVIDERS + " reads dashboards (mounts " + mounts + ")");
    }
    report(problems);
  }

  static void check(String where, String flux, List<String> problems) {
    Set<String> measurements = new TreeSet<>();
    Matcher m = Pattern.compile("_measurement == \"([^\"]+)\"|measurement: \"([^\"]+)\"").matcher(flux);
    while (m.find()) {
      measurements.add(m.group(1) != null ? m.group(1) : m.group(2));
    }
    if (measurements.isEmpty()) {
      problems.add(where + ": names no measurement");
      return;
    }
    Set<String> tags = new TreeSet<>();
    Set<String> fields = new TreeSet<>();
    for (String name : measurements) {
      Layout layout = WRITTEN.get(name);
      if (layout == null) {
        problems.add(where + ": measurement '" + name + "' is not written by the processor (it writes " + WRITTEN.keySet() + ")");
        return;
      }
      tags.addAll(layout.tags());
      fields.addAll(layout.fields());
    }
    Matcher field = Pattern.compile("_field == \"([^\"]+)\"").matcher(flux);
    while (field.find()) {
      if (!fields.contains(field.group(1))) {
        problems.add(where + ": field '" + field.group(1) + "' is not written to " + measurements + " (fields " + fields + ")");
      }
    }
    Matcher fieldRegex = Pattern.compile("_field =~ /([^/]+)/").matcher(flux);
    while (fieldRegex.find()) {
      Pattern p = Pattern.compile(fieldRegex.group(1));
      if (fields.stream().noneMatch(f -> p.matcher(f).find())) {
        problems.add(where + ": field pattern /" + fieldRegex.group(1) + "/ matches no field of " + measurements);
      }
    }
    Matcher tag = Pattern.compile("\\br\\.([A-Za-z_][A-Za-z0-9_]*)").matcher(flux);
    while (tag.find()) {
      String t = tag.group(1);
      if (!FLUX_COLUMNS.contains(t) && !tags.contains(t)) {
        problems.add(where + ": tag '" + t + "' is not written to " + measurements + " (tags " + tags + ")");
      }
    }
    Matcher schemaTag = Pattern.compile("tag: \"([^\"]+)\"").matcher(flux);
    while (schemaTag.find()) {
      if (!tags.contains(schemaTag.group(1))) {
        problems.add(where + ": tag '" + schemaTag.group(1) + "' is not written to " + measurements + " (tags " + tags + ")");
      }
    }
    // columns kept, grouped or pivoted: tags, fields (after a pivot) or Flux's own
    Matcher lists = Pattern.compile("(?:columns|rowKey|columnKey): \\[([^]]*)]").matcher(flux);
    while (lists.find()) {
      Matcher col = Pattern.compile("\"([^\"]+)\"").matcher(lists.group(1));
      while (col.find()) {
        String c = col.group(1);
        if (c.equals("${label}")) {
          continue; // the label variable: tag keys label_* of netpulse_result (checked in its own test)
        }
        if (!FLUX_COLUMNS.contains(c) && !tags.contains(c) && !fields.contains(c)) {
          problems.add(where + ": column '" + c + "' is neither a tag nor a field of " + measurements);
        }
      }
    }
  }

  private static JsonNode dashboard() {
    try {
      return new ObjectMapper().readTree(RepoFiles.read(DASHBOARD));
    } catch (IOException e) {
      throw new AssertionError(DASHBOARD + " is not valid JSON: " + e.getMessage(), e);
    }
  }

  private static void report(List<String> problems) {
    if (!problems.isEmpty()) {
      fail(String.join("\n", problems));
    }
  }
}
