package io.netpulse.launcher.deploy;

import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Tag;

/**
 * Prometheus and the operations dashboard in docker-compose.yml, read as data (no Docker engine here): Prometheus
 * scrapes every netpulse service on the port it serves /metrics on, with a token file compose mounts from the token
 * the service requires, and every panel of the operations dashboard queries the provisioned Prometheus for metric
 * names the docs list. {@link PrometheusLiveScrapeTest} runs the same files with the real Prometheus and services.
 */
@Tag("unit")
class PrometheusScrapeTest {

  static final String PROMETHEUS = "deploy/prometheus/prometheus.yml";
  static final String OPERATIONS = "deploy/grafana/dashboards/operations.json";
  static final String DATASOURCE = "deploy/grafana/provisioning/datasources/prometheus.yaml";
  /** Service → the variable naming its metrics port, and the one holding the token its /metrics requires. */
  static final Map<String, String[]> SCRAPED = Map.of(
      "processor", new String[] {"NETPULSE_METRICS_PORT", "NETPULSE_METRICS_TOKEN"},
      "collector", new String[] {"NETPULSE_METRICS_PORT", "NETPULSE_METRICS_TOKEN"},
      "dashboard", new String[] {"NETPULSE_DASHBOARD_PORT", "NETPULSE_DASHBOARD_TOKEN"});
  private static final Pattern METRIC = Pattern.compile("\\b(netpulse_[a-z0-9_]+|jvm_[a-z0-9_]+|kafka_[a-z0-9_]+)");

  private final List<String> problems = new ArrayList<>();

  @Test
  void prometheusScrapesEveryServiceOnItsMetricsPortWithTheTokenItRequires() {
    JsonNode compose = RepoFiles.yaml(ComposeFileTest.FILE);
    JsonNode services = compose.path("services");
    JsonNode prometheus = services.path("prometheus");
    // the config file it reads is the repository's
    String configFlag = "";
    for (JsonNode arg : prometheus.path("command")) {
      if (arg.asText().startsWith("--config.file=")) {
        configFlag = arg.asText().substring("--config.file=".length());
      }
    }
    Set<String> mounts = new HashSet<>();
    prometheus.path("volumes").forEach(v -> mounts.add(RepoFiles.withDefaults(v.asText())));
    if (!mounts.contains("./" + PROMETHEUS + ":" + configFlag + ":ro")) {
      problems.add(ComposeFileTest.FILE + ": prometheus must mount ./" + PROMETHEUS + " read-only at its --config.file '"
          + configFlag + "' (mounts: " + mounts + ")");
    }
    Map<String, String> tokenAtTarget = tokenFiles();
    Map<String, JsonNode> jobs = new java.util.HashMap<>();
    RepoFiles.yaml(PROMETHEUS).path("scrape_configs").forEach(j -> jobs.put(j.path("job_name").asText(), j));
    SCRAPED.forEach((service, vars) -> {
      JsonNode job = jobs.get("netpulse-" + service);
      if (job == null) {
        problems.add(PROMETHEUS + ": no job netpulse-" + service + " (jobs: " + jobs.keySet() + ")");
        return;
      }
      Map<String, String> env = ComposeFileTest.environment(services.path(service));
      String port = RepoFiles.withDefaults(env.getOrDefault(vars[0], ""));
      Set<String> ports = new TreeSet<>();
      job.path("static_configs").forEach(sc -> sc.path("targets").forEach(t -> ports.add(t.asText().replaceAll(".*:", ""))));
      job.path("dns_sd_configs").forEach(d -> ports.add(d.path("port").asText()));
      if (port.isEmpty() || !ports.equals(Set.of(port))) {
        problems.add(PROMETHEUS + ": job netpulse-" + service + " scrapes port(s) " + ports + ", the service serves "
            + vars[0] + "=" + port);
      }
      String file = job.path("authorization").path("credentials_file").asText("");
      if (!vars[1].equals(tokenAtTarget.get(file))) {
        problems.add(PROMETHEUS + ": job netpulse-" + service + " credentials_file '" + file + "' must be a compose "
            + "config holding ${" + vars[1] + "} (mounted: " + tokenAtTarget + ")");
      }
      if (!env.containsKey(vars[1])) {
        problems.add(ComposeFileTest.FILE + ": service '" + service + "' does not set " + vars[1]
            + ", which Prometheus sends");
      }
    });
    report();
  }

  @Test
  void theOperationsDashboardQueriesTheProvisionedPrometheusForDocumentedMetrics() throws Exception {
    JsonNode dashboard = new ObjectMapper().readTree(RepoFiles.read(OPERATIONS));
    String uid = RepoFiles.yaml(DATASOURCE).path("datasources").path(0).path("uid").asText();
    String docs = RepoFiles.read("docs/operations.md") + RepoFiles.read("docs/collector.md");
    Set<String> titles = new TreeSet<>();
    for (JsonNode panel : dashboard.path("panels")) {
      String title = panel.path("title").asText();
      titles.add(title.toLowerCase(java.util.Locale.ROOT));
      if (!uid.equals(panel.path("datasource").path("uid").asText())) {
        problems.add(OPERATIONS + ": panel '" + title + "' datasource is not '" + uid + "' from " + DATASOURCE);
      }
      if (panel.path("targets").isEmpty()) {
        problems.add(OPERATIONS + ": panel '" + title + "' has no query");
      }
      for (JsonNode target : panel.path("targets")) {
        Matcher m = METRIC.matcher(target.path("expr").asText());
        if (!m.find()) {
          problems.add(OPERATIONS + ": panel '" + title + "' target " + target.path("refId").asText() + ": no metric");
        }
        m.reset();
        while (m.find()) {
          String name = m.group(1);
          // documented either whole or as its family (docs name counters with _total, as Prometheus shows them)
          if (name.startsWith("netpulse_") && !docs.contains(name)) {
            problems.add(OPERATIONS + ": panel '" + title + "' queries " + name + ", which no doc lists");
          }
        }
      }
    }
    for (String wanted : List.of("lag", "lines", "dead letters", "store write errors", "heap")) {
      if (titles.stream().noneMatch(t -> t.contains(wanted))) {
        problems.add(OPERATIONS + ": no panel about " + wanted + " (titles: " + titles + ")");
      }
    }
    JsonNode grafana = RepoFiles.yaml(ComposeFileTest.FILE).path("services").path("grafana");
    String url = ComposeFileTest.environment(grafana).getOrDefault("PROMETHEUS_URL", "");
    if (!url.equals("http://prometheus:9090")) {
      problems.add(ComposeFileTest.FILE + ": grafana PROMETHEUS_URL '" + url + "' is not the prometheus service");
    }
    report();
  }

  /**
   * The token files compose mounts in the prometheus container: target path → the variable whose value the file
   * holds (compose configs whose content is a token variable).
   */
  static Map<String, String> tokenFiles() {
    JsonNode compose = RepoFiles.yaml(ComposeFileTest.FILE);
    Map<String, String> tokenAtTarget = new java.util.HashMap<>();
    for (JsonNode c : compose.path("services").path("prometheus").path("configs")) {
      String content = compose.path("configs").path(c.path("source").asText()).path("content").asText("");
      Matcher v = RepoFiles.COMPOSE_VARIABLE.matcher(content);
      if (v.find()) {
        tokenAtTarget.put(c.path("target").asText(), v.group(1));
      }
    }
    return tokenAtTarget;
  }

  private void report() {
    if (!problems.isEmpty()) {
      fail(String.join("\n", problems));
    }
  }
}
