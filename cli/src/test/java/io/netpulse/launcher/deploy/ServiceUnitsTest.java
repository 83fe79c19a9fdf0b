package io.netpulse.launcher.deploy;

import static io.netpulse.launcher.deploy.UnitFiles.NETPULSE;
import static io.netpulse.launcher.deploy.UnitFiles.execArgs;
import static io.netpulse.launcher.deploy.UnitFiles.one;
import static io.netpulse.launcher.deploy.UnitFiles.optionValue;
import static io.netpulse.launcher.deploy.UnitFiles.parseUnit;
import static io.netpulse.launcher.deploy.UnitFiles.seconds;
import static io.netpulse.launcher.deploy.UnitFiles.words;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.netpulse.cli.Main;
import io.netpulse.processor.ProcessorApp;
import io.netpulse.processor.store.StoreWriter;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;
import picocli.CommandLine.Model.OptionSpec;

/**
 * deploy/systemd and deploy/kubernetes read as data (no systemd or cluster here): every netpulse command line they
 * hold is parsed by the real CLI with the settings their env files and env entries give as its options, so a
 * misspelt option or variable, or a value of the wrong type, fails; the sandbox, stop and schedule settings are the
 * ones docs/operations.md describes; `systemd-analyze verify` checks the units where it is installed.
 */
@Tag("unit")
class ServiceUnitsTest {

  static final String SYSTEMD = "deploy/systemd/";
  static final String KUBERNETES = "deploy/kubernetes/";
  static final String COLLECTOR = SYSTEMD + "netpulse-collector.service";
  static final String PROCESSOR = SYSTEMD + "netpulse-processor.service";
  static final String RUN = SYSTEMD + "netpulse-run@.service";
  static final String TIMER = SYSTEMD + "netpulse-run@.timer";
  static final String CRONJOB = KUBERNETES + "netpulse-run-cronjob.yaml";
  static final String DAEMONSET = KUBERNETES + "netpulse-collector-daemonset.yaml";
  /** The image's user's home (Dockerfile: useradd --home-dir), where a run finds ~/.ssh. */
  static final String IMAGE_HOME = "/var/lib/netpulse";

  private final List<String> problems = new ArrayList<>();

  // ---- systemd ----

  @Test
  void everyUnitsNetpulseCommandAndSettingsAreOnesTheCliTakes() {
    for (String unit : List.of(COLLECTOR, PROCESSOR, RUN)) {
      checkUnit(unit, RepoFiles.read(unit), this::envFileInRepo);
    }
    report();
  }

  @Test
  void theCollectorRestartsOnFailureSandboxedAndStopsWithinItsFlush() {
    Map<String, List<String>> s = parseUnit(RepoFiles.read(COLLECTOR)).getOrDefault("Service", Map.of());
    // the shutdown hook waits up to 20 s for the sink to drain or spool (CollectorCommand); systemd must wait longer
    expectLongRunningService(COLLECTOR, s, 20, "flush");
    for (String forbidden : List.of("PrivateNetwork", "MemoryDenyWriteExecute", "ProtectProc")) {
      if (s.containsKey(forbidden)) {
        problems.add(COLLECTOR + ": " + forbidden + " stops sar/ss seeing the host or the JVM compiling");
      }
    }
    report();
  }

  @Test
  void theProcessorRestartsOnFailureSandboxedAndStopsWithinItsCloseWhereItsEnvFileIs() {
    Map<String, Map<String, List<String>>> unit = parseUnit(RepoFiles.read(PROCESSOR));
    Map<String, List<String>> s = unit.getOrDefault("Service", Map.of());
    // the shutdown hook waits for the store writer's and Kafka Streams' close, plus 5 s (ProcessorCommand)
    long close = ProcessorApp.CLOSE_TIMEOUT.toSeconds() + StoreWriter.CLOSE_TIMEOUT.toSeconds() + 5;
    expectLongRunningService(PROCESSOR, s, close, "close of the store writer and Kafka Streams");
    if (s.containsKey("MemoryDenyWriteExecute") || s.containsKey("PrivateNetwork")) {
      problems.add(PROCESSOR + ": MemoryDenyWriteExecute or PrivateNetwork stops the JVM compiling or reaching Kafka");
    }
    // skipped, not failed, where no processor is configured: netpulse-run@ wants it on every machine
    expect(PROCESSOR, unit.get("Unit"), "ConditionPathExists", "/etc/netpulse/processor.env");
    Map<String, List<String>> run = parseUnit(RepoFiles.read(RUN)).getOrDefault("Unit", Map.of());
    String name = Path.of(PROCESSOR).getFileName().toString();
    if (!run.getOrDefault("Wants", List.of()).contains(name) || !run.getOrDefault("After", List.of()).contains(name)
        || run.getOrDefault("Requires", List.of()).contains(name) || run.containsKey("BindsTo")) {
      problems.add(RUN + ": must have Wants= and After=" + name + ", not Requires= (the processor may run elsewhere)");
    }
    // /metrics on loopback unless a token is set: the env file's address, or the option's default
    String host = envSetting(RepoFiles.read(SYSTEMD + "processor.env"), "NETPULSE_METRICS_HOST");
    try {
      if (host != null && !InetAddress.getByName(host).isLoopbackAddress()) {
        problems.add(SYSTEMD + "processor.env: NETPULSE_METRICS_HOST=" + host + " is not loopback");
      }
    } catch (UnknownHostException e) {
      problems.add(SYSTEMD + "processor.env: NETPULSE_METRICS_HOST=" + host + " is not an address");
    }
    report();
  }

  /** Restarted on failure but not after a usage error, sandboxed, its data dir the state dir, stopped cleanly. */
  private void expectLongRunningService(String unit, Map<String, List<String>> s, long stopSeconds, String stop) {
    expect(unit, s, "Restart", "on-failure");
    expect(unit, s, "RestartPreventExitStatus", "2");
    expect(unit, s, "SuccessExitStatus", "143"); // the JVM's status after SIGTERM: a clean stop
    expect(unit, s, "KillMode", "mixed");
    expectSandbox(unit, s);
    if (seconds(one(s, "TimeoutStopSec")) <= stopSeconds) {
      problems.add(unit + ": TimeoutStopSec=" + one(s, "TimeoutStopSec") + " does not outlast the " + stopSeconds
          + "-s " + stop);
    }
    String dataDir = optionValue(execArgs(one(s, "ExecStart")), "--data-dir");
    if (dataDir == null || !s.getOrDefault("ReadWritePaths", List.of()).contains(dataDir)
        || !("/var/lib/" + one(s, "StateDirectory")).equals(dataDir)) {
      problems.add(unit + ": --data-dir " + dataDir + " must be the StateDirectory and in ReadWritePaths "
          + s.get("ReadWritePaths") + ", the one place ProtectSystem=strict lets it write");
    }
  }

  /** The value an env file gives a variable, the last line that sets it, uncommented; null if none does. */
  private static String envSetting(String envFile, String name) {
    Matcher m = Pattern.compile("(?m)^" + name + "=(.*)$").matcher(envFile);
    String value = null;
    while (m.find()) {
      value = m.group(1).strip();
    }
    return value;
  }

  @Test
  void theRunIsAOneShotOfThePlanNamedByItsInstanceAttachedToTheRunningProcessor() {
    Map<String, List<String>> s = parseUnit(RepoFiles.read(RUN)).getOrDefault("Service", Map.of());
    expect(RUN, s, "Type", "oneshot");
    expect(RUN, s, "KillMode", "mixed");
    expectSandbox(RUN, s);
    List<String> args = execArgs(one(s, "ExecStart"));
    if (!args.contains("--attach") || !args.contains("/etc/netpulse/plans/%i.yaml")) {
      problems.add(RUN + ": ExecStart " + args + " must run /etc/netpulse/plans/%i.yaml with --attach");
    }
    if (s.containsKey("SuccessExitStatus")) {
      problems.add(RUN + ": SuccessExitStatus: every non-zero status of run (a failed test, an interrupted run) "
          + "must fail the unit");
    }
    // oneshot's start timeout is the 90-s default otherwise: a run takes minutes to an hour
    if (seconds(one(s, "TimeoutStartSec")) < 3600) {
      problems.add(RUN + ": TimeoutStartSec=" + one(s, "TimeoutStartSec") + " is shorter than a run");
    }
    // on SIGTERM the run waits up to 15 s + 45 s for the interrupted test's result (RunCommand, PlanExecution)
    if (seconds(one(s, "TimeoutStopSec")) <= 60) {
      problems.add(RUN + ": TimeoutStopSec=" + one(s, "TimeoutStopSec") + " cuts the interrupted run's 60-s wait");
    }
    Map<String, List<String>> t = parseUnit(RepoFiles.read(TIMER)).getOrDefault("Timer", Map.of());
    expect(TIMER, t, "Persistent", "true");
    if (one(t, "OnCalendar") == null || one(t, "RandomizedDelaySec") == null || t.containsKey("Unit")) {
      problems.add(TIMER + ": needs OnCalendar and RandomizedDelaySec, and no Unit= (it starts its own instance)");
    }
    report();
  }

  @Test
  void systemdAnalyzeVerifiesTheUnits(@TempDir Path dir) throws Exception {
    Path analyze = Path.of("/usr/bin/systemd-analyze");
    Assumptions.assumeTrue(Files.isExecutable(analyze), "systemd-analyze is not installed here");
    // verify wants ExecStart's program to exist: the repository's bin/netpulse stands in for the installed copy
    String netpulse = RepoFiles.root().resolve("bin/netpulse").toString();
    List<String> names = new ArrayList<>();
    try (var files = Files.list(RepoFiles.root().resolve(SYSTEMD))) {
      for (Path f : files.filter(p -> p.toString().matches(".*\\.(service|timer)$")).toList()) {
        Files.writeString(dir.resolve(f.getFileName()), Files.readString(f).replace(NETPULSE, netpulse));
        names.add(f.getFileName().toString().replace("@.", "@example."));
      }
    }
    assertThat(names).hasSize(4);
    String timer = one(parseUnit(RepoFiles.read(TIMER)).get("Timer"), "OnCalendar");
    List<String> verifyCommand = new ArrayList<>(List.of(analyze.toString(), "verify"));
    verifyCommand.addAll(names);
    String verify = runTool(dir, verifyCommand.toArray(String[]::new));
    String calendar = runTool(dir, analyze.toString(), "calendar", timer);
    assertThat(verify).as("systemd-analyze verify " + names + " (any output is a warning)").isEmpty();
    assertThat(calendar).as("systemd-analyze calendar " + timer).contains("Next elapse:");
  }

  // ---- Kubernetes ----

  @Test
  void everyManifestsNetpulseContainerRunsACommandAndVariablesTheCliTakes() {
    for (String file : List.of(CRONJOB, DAEMONSET)) {
      checkManifest(file, RepoFiles.read(file));
    }
    report();
  }

  @Test
  void theCronJobRunsItsPlanFromTheConfigMapWithKeysFromAReadOnlySecretOneAtATime() {
    List<JsonNode> docs = yamlDocuments(CRONJOB, RepoFiles.read(CRONJOB));
    JsonNode cron = docs.stream().filter(d -> "CronJob".equals(d.path("kind").asText())).findFirst().orElseThrow();
    if (!"Forbid".equals(cron.path("spec").path("concurrencyPolicy").asText())) {
      problems.add(CRONJOB + ": spec.concurrencyPolicy must be Forbid (two runs on the same hosts disturb each other)");
    }
    JsonNode pod = podSpec(cron);
    JsonNode container = pod.path("containers").path(0);
    Map<String, JsonNode> volumes = new LinkedHashMap<>();
    pod.path("volumes").forEach(v -> volumes.put(v.path("name").asText(), v));
    Map<String, JsonNode> mounts = new LinkedHashMap<>();
    container.path("volumeMounts").forEach(m -> mounts.put(m.path("mountPath").asText(), m));

    JsonNode ssh = mounts.get(IMAGE_HOME + "/.ssh");
    JsonNode secret = ssh == null ? null : volumes.get(ssh.path("name").asText()).path("secret");
    if (ssh == null || !ssh.path("readOnly").asBoolean() || secret == null || secret.isMissingNode()) {
      problems.add(CRONJOB + ": no read-only Secret mounted at " + IMAGE_HOME + "/.ssh (got " + mounts.keySet() + ")");
    } else if (secret.path("defaultMode").asInt() != 0400) {
      problems.add(CRONJOB + ": the SSH Secret's defaultMode is 0"
          + Integer.toOctalString(secret.path("defaultMode").asInt()) + ", not 0400");
    }

    String plan = strings(container.path("args")).stream().filter(a -> a.endsWith(".yaml")).findFirst().orElse("");
    JsonNode planMount = mounts.get(plan.substring(0, Math.max(0, plan.lastIndexOf('/'))));
    JsonNode configMapRef = planMount == null ? null : volumes.get(planMount.path("name").asText()).path("configMap");
    JsonNode planMap = docs.stream().filter(d -> "ConfigMap".equals(d.path("kind").asText())
        && configMapRef != null && d.path("metadata").path("name").asText().equals(configMapRef.path("name").asText()))
        .findFirst().orElse(null);
    String planText = planMap == null ? null : planMap.path("data").path(Path.of(plan).getFileName().toString()).asText(null);
    if (planText == null || !planMount.path("readOnly").asBoolean()) {
      problems.add(CRONJOB + ": the plan " + plan + " is not a key of a ConfigMap of this file mounted read-only there");
    } else {
      dryRun(CRONJOB + " ConfigMap " + planMap.path("metadata").path("name").asText(), planText);
    }
    report();
  }

  // ---- the checks bite ----

  @Test
  void aMisspeltOptionVariableOrValueIsReported() {
    String unit = RepoFiles.read(COLLECTOR);
    checkUnit("misspelt option", unit.replace("--data-dir=", "--data-dri="), this::envFileInRepo);
    checkUnit("misspelt processor option", RepoFiles.read(PROCESSOR).replace("--data-dir=", "--data-dri="),
        this::envFileInRepo);
    checkUnit("misspelt variable", unit, name -> RepoFiles.read(SYSTEMD + name)
        .replace("NETPULSE_SAMPLERS=", "NETPULSE_SAMPLER="));
    checkUnit("bad value", unit, name -> RepoFiles.read(SYSTEMD + name)
        .replace("NETPULSE_BATCH_LINGER=500", "NETPULSE_BATCH_LINGER=500ms"));
    checkManifest("misspelt arg", RepoFiles.read(CRONJOB).replace("\"--attach\"", "\"--atach\""));
    checkManifest("misspelt env", RepoFiles.read(DAEMONSET).replace("NETPULSE_HOST", "NETPULSE_HOSTNAME"));
    assertThat(problems).hasSize(6);
    assertThat(problems.get(0)).startsWith("misspelt option").contains("--data-dri");
    assertThat(problems.get(1)).startsWith("misspelt processor option").contains("--data-dri");
    assertThat(problems.get(2)).startsWith("misspelt variable").contains("[NETPULSE_SAMPLER]");
    assertThat(problems.get(3)).startsWith("bad value").contains("500ms");
    assertThat(problems.get(4)).startsWith("misspelt arg").contains("--atach");
    assertThat(problems.get(5)).startsWith("misspelt env").contains("NETPULSE_HOSTNAME");
  }

  // ---- systemd unit files ----

  /** The unit's netpulse command with its Environment= and env files' settings as options, through picocli. */
  private void checkUnit(String where, String text, java.util.function.Function<String, String> envFiles) {
    Map<String, List<String>> s = parseUnit(text).getOrDefault("Service", Map.of());
    List<String> exec = s.getOrDefault("ExecStart", List.of());
    if (exec.size() != 1) {
      problems.add(where + ": expected one ExecStart, got " + exec);
      return;
    }
    List<String> args = execArgs(exec.get(0));
    Map<String, String> env = new LinkedHashMap<>();
    for (String assignment : s.getOrDefault("Environment", List.of())) {
      for (String word : words(assignment)) {
        String[] kv = word.split("=", 2);
        env.put(kv[0], kv.length > 1 ? kv[1] : "");
      }
    }
    for (String file : s.getOrDefault("EnvironmentFile", List.of())) {
      boolean optional = file.startsWith("-");
      String name = Path.of(file.replaceFirst("^-", "")).getFileName().toString();
      if (!file.replaceFirst("^-", "").startsWith("/etc/netpulse/")) {
        problems.add(where + ": EnvironmentFile " + file + " is not under /etc/netpulse/");
      } else if (!optional) {
        String content = envFiles.apply(name);
        if (content == null) {
          problems.add(where + ": EnvironmentFile " + file + " has no example " + SYSTEMD + name);
        } else {
          // commented-out settings are documentation: they must be real too
          Matcher m = Pattern.compile("(?m)^#?\\s*(NETPULSE_[A-Z0-9_]*)=(.*)$").matcher(content);
          while (m.find()) {
            env.put(m.group(1), m.group(2).strip());
          }
        }
      }
    }
    checkCommand(where, args, env);
  }

  private String envFileInRepo(String name) {
    return Files.exists(RepoFiles.root().resolve(SYSTEMD + name)) ? RepoFiles.read(SYSTEMD + name) : null;
  }

  private void expectSandbox(String unit, Map<String, List<String>> s) {
    expect(unit, s, "NoNewPrivileges", "yes");
    expect(unit, s, "ProtectSystem", "strict");
    expect(unit, s, "ProtectHome", "yes");
    expect(unit, s, "PrivateTmp", "yes");
    String user = one(s, "User");
    if (user == null || user.equals("root") || user.equals("0") || s.containsKey("DynamicUser")) {
      problems.add(unit + ": User=" + user + ": must be the dedicated netpulse user");
    }
  }

  private void expect(String unit, Map<String, List<String>> section, String key, String value) {
    if (!value.equals(one(section, key))) {
      problems.add(unit + ": " + key + "=" + one(section, key) + ", expected " + key + "=" + value);
    }
  }

  // ---- Kubernetes manifests ----

  private void checkManifest(String where, String text) {
    int containers = 0;
    for (JsonNode doc : yamlDocuments(where, text)) {
      JsonNode pod = podSpec(doc);
      if (pod == null) {
        continue;
      }
      for (JsonNode c : pod.path("containers")) {
        if (c.has("command")) {
          problems.add(where + ": container " + c.path("name").asText() + " sets command, replacing the image's "
              + "entry point bin/netpulse: give the netpulse command in args");
          continue;
        }
        containers++;
        Map<String, String> env = new LinkedHashMap<>();
        // valueFrom: known only in the cluster; the name is still checked
        c.path("env").forEach(e -> env.put(e.path("name").asText(), e.has("value") ? e.path("value").asText() : null));
        checkCommand(where + " container " + c.path("name").asText(), strings(c.path("args")), env);
      }
    }
    if (containers == 0) {
      problems.add(where + ": no netpulse container");
    }
  }

  private static List<JsonNode> yamlDocuments(String where, String text) {
    try {
      return new YAMLMapper().readerFor(JsonNode.class).<JsonNode>readValues(text).readAll();
    } catch (IOException e) {
      throw new AssertionError(where + " is not valid YAML: " + e.getMessage(), e);
    }
  }

  /** The pod template of a workload, or null for other kinds. */
  private static JsonNode podSpec(JsonNode doc) {
    return switch (doc.path("kind").asText()) {
      case "CronJob" -> doc.path("spec").path("jobTemplate").path("spec").path("template").path("spec");
      case "Job", "Deployment", "DaemonSet", "StatefulSet" -> doc.path("spec").path("template").path("spec");
      default -> null;
    };
  }

  private static List<String> strings(JsonNode array) {
    List<String> out = new ArrayList<>();
    array.forEach(a -> out.add(a.asText()));
    return out;
  }

  // ---- the CLI ----

  /**
   * Parses {@code netpulse ARGS} with every NETPULSE_ variable given as the option that reads it (a flag in ARGS
   * wins, as it does over its variable): an unknown option, an unread variable or a value of the wrong type fails.
   */
  private void checkCommand(String where, List<String> args, Map<String, String> env) {
    CommandLine cli = Main.commandLine();
    List<String> path = new ArrayList<>();
    CommandLine sub = cli;
    for (String a : args) {
      CommandLine next = sub.getSubcommands().get(a);
      if (next == null) {
        break;
      }
      sub = next;
      path.add(a);
    }
    String command = String.join(" ", path);
    Set<String> read = path.isEmpty() ? null : CodeEnvironment.readBy(command);
    if (read == null) {
      problems.add(where + ": " + args + " names no netpulse command");
      return;
    }
    Set<String> script = CodeEnvironment.readByScript();
    List<String> full = new ArrayList<>(args);
    Set<String> unread = new TreeSet<>();
    env.forEach((name, value) -> {
      if (!name.startsWith("NETPULSE_") || script.contains(name) || CodeEnvironment.READ_BY_GETENV.contains(name)) {
        return;
      }
      if (!read.contains(name)) {
        unread.add(name);
        return;
      }
      OptionSpec option = optionReading(sub(cli, path), command, name);
      if (value == null || option == null
          || args.stream().anyMatch(a -> List.of(option.names()).contains(a.split("=", 2)[0]))) {
        return; // known only in the cluster, or a flag gives it
      }
      if (option.typeInfo().isBoolean()) {
        if (!value.equals("true") && !value.equals("false")) {
          problems.add(where + ": " + name + "=" + value + " is not true or false");
        } else if (value.equals("true")) {
          full.add(option.longestName());
        }
      } else {
        full.add(option.longestName() + "=" + value);
      }
    });
    if (!unread.isEmpty()) {
      problems.add(where + ": " + unread + " " + (unread.size() == 1 ? "is" : "are") + " not read by 'netpulse "
          + command + "' nor bin/netpulse (they read " + read + " and " + script + ")");
    }
    try {
      cli.parseArgs(full.toArray(String[]::new));
    } catch (CommandLine.ParameterException e) {
      problems.add(where + ": netpulse " + String.join(" ", full) + ": " + e.getMessage());
    }
  }

  private static CommandLine sub(CommandLine cli, List<String> path) {
    CommandLine c = cli;
    for (String p : path) {
      c = c.getSubcommands().get(p);
    }
    return c;
  }

  private static OptionSpec optionReading(CommandLine command, String path, String variable) {
    for (CodeEnvironment.OptionDefault o : CodeEnvironment.optionsByCommand().get(path)) {
      if (o.envNames().contains(variable)) {
        return command.getCommandSpec().findOption(o.name());
      }
    }
    return null;
  }

  /** The plan through {@code netpulse run PLAN --dry-run}: every error as file:line:column, exit 2. */
  private void dryRun(String where, String planText) {
    try {
      Path plan = Files.createTempFile("netpulse-plan-", ".yaml");
      try {
        Files.writeString(plan, planText);
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int status = Main.commandLine().setOut(new PrintWriter(out)).setErr(new PrintWriter(err))
            .execute("run", plan.toString(), "--dry-run");
        if (status != 0) {
          problems.add(where + ": the plan fails --dry-run (exit " + status + "): " + err);
        }
      } finally {
        Files.deleteIfExists(plan);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String runTool(Path dir, String... command) throws Exception {
    ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
    pb.environment().put("SYSTEMD_UNIT_PATH", dir + ":"); // the trailing colon keeps the system's units too
    pb.environment().put("SYSTEMD_LOG_COLOR", "0");
    Process p = pb.start();
    String output = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(60, TimeUnit.SECONDS)) {
      p.destroyForcibly();
      fail(String.join(" ", command) + " did not end within 60 s");
    }
    if (p.exitValue() != 0) {
      fail(String.join(" ", command) + " exited " + p.exitValue() + ":\n" + output);
    }
    return output.strip();
  }

  private void report() {
    if (!problems.isEmpty()) {
      fail(String.join("\n", problems));
    }
  }
}
