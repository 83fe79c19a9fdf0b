package io.netpulse.launcher.deploy;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * docker-compose.yml read as data (no Docker engine here): what it sets is what the code reads, images
 * are pinned, volumes, ports, health checks and dependencies hang together, and .env.example covers it.
 */
@Tag("unit")
class ComposeFileTest {

  static final String FILE = "docker-compose.yml";
  static final String ENV_EXAMPLE = "deploy/.env.example";
  /** The netpulse services and the command each must run. */
  static final Map<String, String> NETPULSE_SERVICES = Map.of(
      "processor", "processor", "dashboard", "dashboard", "collector", "collector agent", "launcher", "run");

  private JsonNode services;
  private final List<String> problems = new ArrayList<>();

  @BeforeEach
  void read() {
    services = RepoFiles.yaml(FILE).path("services");
    if (!services.isObject() || services.isEmpty()) {
      fail(FILE + ": no services");
    }
  }

  @Test
  void netpulseServicesSetOnlyVariablesTheirCommandReads() {
    Set<String> script = CodeEnvironment.readByScript();
    NETPULSE_SERVICES.forEach((service, command) -> {
      JsonNode s = services.path(service);
      if (s.isMissingNode()) {
        problems.add(FILE + ": service '" + service + "' is missing");
        return;
      }
      String runs = commandOf(s);
      if (!runs.equals(command) && !runs.startsWith(command + " ")) {
        problems.add(FILE + ": service '" + service + "' command '" + runs + "' does not start 'netpulse " + command + "'");
      }
      Set<String> read = CodeEnvironment.readBy(command);
      if (read == null) {
        problems.add(FILE + ": service '" + service + "': no command 'netpulse " + command + "'");
        return;
      }
      for (String name : environment(s).keySet()) {
        if (!read.contains(name) && !script.contains(name)) {
          problems.add(FILE + ": service '" + service + "' environment '" + name + "': not read by 'netpulse " + command
              + "' nor bin/netpulse (they read " + read + " and " + script + ")");
        }
      }
    });
    report();
  }

  @Test
  void netpulseServicesBuildFromTheRepositoryDockerfileAndOthersUsePinnedImages() {
    forEachService((name, s) -> {
      JsonNode build = s.path("build");
      if (NETPULSE_SERVICES.containsKey(name) || !build.isMissingNode()) {
        String context = build.isTextual() ? build.asText() : build.path("context").asText("");
        String dockerfile = build.isTextual() ? "Dockerfile" : build.path("dockerfile").asText("Dockerfile");
        if (!context.equals(".") || !dockerfile.equals("Dockerfile")) {
          problems.add(FILE + ": service '" + name + "' build: expected context '.' and dockerfile 'Dockerfile', got '"
              + context + "' and '" + dockerfile + "'");
        }
        return;
      }
      String image = s.path("image").asText("");
      if (!DockerImages.isPinned(RepoFiles.withDefaults(image))) {
        problems.add(FILE + ": service '" + name + "' image '" + image + "' is not pinned (a version tag, not latest, or a digest)");
      }
    });
    report();
  }

  @Test
  void namedVolumesAreDeclaredAndUsedAndBindMountsExist() {
    Set<String> declared = new TreeSet<>();
    RepoFiles.yaml(FILE).path("volumes").fieldNames().forEachRemaining(declared::add);
    Set<String> used = new TreeSet<>();
    forEachService((name, s) -> {
      for (JsonNode v : s.path("volumes")) {
        String source = v.isTextual() ? RepoFiles.withDefaults(v.asText()).split(":")[0] : v.path("source").asText();
        if (source.startsWith(".") || source.startsWith("/") || source.startsWith("~")) {
          if (source.startsWith(".") && !Files.exists(RepoFiles.root().resolve(source))) {
            problems.add(FILE + ": service '" + name + "' volumes: bind mount source '" + source + "' does not exist");
          }
        } else {
          used.add(source);
          if (!declared.contains(source)) {
            problems.add(FILE + ": service '" + name + "' volumes: named volume '" + source + "' is not declared under volumes");
          }
        }
      }
    });
    for (String v : declared) {
      if (!used.contains(v)) {
        problems.add(FILE + ": volumes: '" + v + "' is declared but no service uses it");
      }
    }
    report();
  }

  @Test
  void publishedPortsAreUnique() {
    Map<String, String> owners = new HashMap<>();
    forEachService((name, s) -> {
      List<String> hostPorts = new ArrayList<>();
      for (JsonNode p : s.path("ports")) {
        String[] parts = RepoFiles.withDefaults(p.asText()).split(":");
        if (parts.length < 2) {
          problems.add(FILE + ": service '" + name + "' ports: '" + p.asText() + "' publishes a random port; give HOST:CONTAINER");
          continue;
        }
        hostPorts.add(parts[parts.length - 2]);
      }
      if ("host".equals(s.path("network_mode").asText())) {
        // on the host's network the service's own listening ports are host ports too
        environment(s).forEach((k, v) -> {
          if (k.endsWith("_PORT")) {
            hostPorts.add(RepoFiles.withDefaults(v));
          }
        });
        if (s.has("ports")) {
          problems.add(FILE + ": service '" + name + "' has network_mode host and ports, which compose rejects");
        }
      }
      for (String port : hostPorts) {
        String before = owners.putIfAbsent(port, name);
        if (before != null) {
          problems.add(FILE + ": service '" + name + "' ports: host port " + port + " is also published by '" + before + "'");
        }
      }
    });
    report();
  }

  @Test
  void everyServiceHasAHealthCheckAndDependsOnHealthyServicesThatExist() {
    forEachService((name, s) -> {
      JsonNode test = s.path("healthcheck").path("test");
      if (test.isMissingNode() || test.isEmpty() && test.asText("").isBlank()
          || test.isArray() && "NONE".equals(test.path(0).asText())) {
        problems.add(FILE + ": service '" + name + "' healthcheck: no test");
      }
      JsonNode deps = s.path("depends_on");
      if (deps.isArray()) {
        problems.add(FILE + ": service '" + name + "' depends_on: use the long form with condition: service_healthy");
        return;
      }
      deps.fields().forEachRemaining(d -> {
        if (!services.has(d.getKey())) {
          problems.add(FILE + ": service '" + name + "' depends_on: no service '" + d.getKey() + "'");
        }
        if (!"service_healthy".equals(d.getValue().path("condition").asText())) {
          problems.add(FILE + ": service '" + name + "' depends_on '" + d.getKey() + "': condition must be service_healthy");
        }
      });
    });
    report();
  }

  @Test
  void theEnvExampleListsEveryVariableTheComposeFileUsesAndNoOther() {
    Set<String> used = new TreeSet<>();
    Matcher m = RepoFiles.COMPOSE_VARIABLE.matcher(RepoFiles.read(FILE));
    while (m.find()) {
      used.add(m.group(1));
    }
    Set<String> listed = new TreeSet<>();
    Matcher l = Pattern.compile("(?m)^([A-Za-z_][A-Za-z0-9_]*)=").matcher(RepoFiles.read(ENV_EXAMPLE));
    while (l.find()) {
      listed.add(l.group(1));
    }
    for (String v : used) {
      if (!listed.contains(v)) {
        problems.add(ENV_EXAMPLE + ": variable '" + v + "' used in " + FILE + " is not listed");
      }
    }
    for (String v : listed) {
      if (!used.contains(v)) {
        problems.add(ENV_EXAMPLE + ": variable '" + v + "' is not used in " + FILE);
      }
    }
    report();
  }

  @Test
  void theLauncherIsAOneShotUnderAProfileWithReadOnlyPlansAndKeys() {
    JsonNode launcher = services.path("launcher");
    if (launcher.path("profiles").isEmpty()) {
      problems.add(FILE + ": service 'launcher' profiles: must be set, so that 'up' does not start it");
    }
    List<String> mounts = new ArrayList<>();
    launcher.path("volumes").forEach(v -> mounts.add(RepoFiles.withDefaults(v.asText())));
    for (String target : List.of("/plans", "/var/lib/netpulse/.ssh")) {
      if (mounts.stream().noneMatch(v -> v.endsWith(":" + target + ":ro"))) {
        problems.add(FILE + ": service 'launcher' volumes: no read-only mount at " + target + " (got " + mounts + ")");
      }
    }
    if (!environment(services.path("dashboard")).containsKey("NETPULSE_DASHBOARD_TOKEN")) {
      problems.add(FILE + ": service 'dashboard' environment: binds 0.0.0.0, so NETPULSE_DASHBOARD_TOKEN must be set");
    }
    report();
  }

  static String commandOf(JsonNode service) {
    JsonNode c = service.path("command");
    if (c.isArray()) {
      List<String> parts = new ArrayList<>();
      c.forEach(p -> parts.add(p.asText()));
      return String.join(" ", parts);
    }
    return c.asText("");
  }

  /** The environment as a map, from either compose form (map, or list of NAME=value). */
  static Map<String, String> environment(JsonNode service) {
    Map<String, String> env = new HashMap<>();
    JsonNode e = service.path("environment");
    if (e.isArray()) {
      e.forEach(item -> {
        String[] kv = item.asText().split("=", 2);
        env.put(kv[0], kv.length > 1 ? kv[1] : "");
      });
    } else {
      e.fields().forEachRemaining(f -> env.put(f.getKey(), f.getValue().asText()));
    }
    return env;
  }

  private void forEachService(java.util.function.BiConsumer<String, JsonNode> check) {
    for (Iterator<Map.Entry<String, JsonNode>> it = services.fields(); it.hasNext(); ) {
      Map.Entry<String, JsonNode> s = it.next();
      check.accept(s.getKey(), s.getValue());
    }
  }

  private void report() {
    if (!problems.isEmpty()) {
      fail(String.join("\n", problems));
    }
  }
}
