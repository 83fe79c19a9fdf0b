package io.netpulse.launcher.deploy;

import io.netpulse.cli.Main;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/**
 * The NETPULSE_ environment variables the code reads: per command, the {@code ${env:NETPULSE_...}}
 * defaults of its picocli options (read from the annotations, before interpolation), plus the few
 * read elsewhere.
 */
final class CodeEnvironment {

  private static final Pattern ENV_DEFAULT = Pattern.compile("\\$\\{env:(NETPULSE_[A-Z0-9_]+)");

  /**
   * Read with System.getenv, not through an option (found with grep -rn 'getenv("NETPULSE'):
   * the token for InfluxDB beside --influx-token-file, and stack traces on errors.
   */
  static final Set<String> READ_BY_GETENV = Set.of("NETPULSE_INFLUX_TOKEN", "NETPULSE_DEBUG");

  /** One annotated option of a command: its longest name and its annotated default. */
  record OptionDefault(String command, String name, String defaultValue, Class<?> declaredIn, boolean hidden) {

    /** NETPULSE_ and the option's name in upper snake case: --commit-interval is NETPULSE_COMMIT_INTERVAL. */
    String expectedEnv() {
      return "NETPULSE_" + name.replaceFirst("^-+", "").replace('-', '_').toUpperCase(Locale.ROOT);
    }

    Set<String> envNames() {
      Set<String> names = new TreeSet<>();
      Matcher m = ENV_DEFAULT.matcher(defaultValue);
      while (m.find()) {
        names.add(m.group(1));
      }
      return names;
    }
  }

  private CodeEnvironment() {}

  /** Every command by its path ("processor", "collector agent", ...), with its options' defaults. */
  static Map<String, List<OptionDefault>> optionsByCommand() {
    Map<String, List<OptionDefault>> out = new LinkedHashMap<>();
    collect(Main.commandLine(), "", out);
    return out;
  }

  /** The variables that {@code netpulse COMMAND} reads: its options' env defaults and the getenv ones. */
  static Set<String> readBy(String command) {
    List<OptionDefault> options = optionsByCommand().get(command);
    if (options == null) {
      return null;
    }
    Set<String> names = new TreeSet<>(READ_BY_GETENV);
    options.forEach(o -> names.addAll(o.envNames()));
    return names;
  }

  /** NETPULSE_ variables bin/netpulse (the image's entry point) reads: ${NETPULSE_...}. */
  static Set<String> readByScript() {
    Set<String> names = new TreeSet<>();
    Matcher m = Pattern.compile("\\$\\{(NETPULSE_[A-Z0-9_]+)").matcher(RepoFiles.read("bin/netpulse"));
    while (m.find()) {
      names.add(m.group(1));
    }
    return names;
  }

  private static void collect(CommandLine cli, String prefix, Map<String, List<OptionDefault>> out) {
    for (Map.Entry<String, CommandLine> sub : cli.getSubcommands().entrySet()) {
      String path = (prefix + " " + sub.getKey()).strip();
      CommandSpec spec = sub.getValue().getCommandSpec();
      List<OptionDefault> options = new ArrayList<>();
      addAnnotated(path, spec.userObject().getClass(), options);
      for (CommandSpec mixin : spec.mixins().values()) {
        addAnnotated(path, mixin.userObject().getClass(), options);
      }
      out.put(path, options);
      collect(sub.getValue(), path, out);
    }
  }

  private static void addAnnotated(String command, Class<?> type, List<OptionDefault> out) {
    for (Class<?> c = type; c != null && c != Object.class; c = c.getSuperclass()) {
      for (Field f : c.getDeclaredFields()) {
        Option option = f.getAnnotation(Option.class);
        if (option == null || option.usageHelp() || option.versionHelp()) {
          continue;
        }
        String longest = java.util.Arrays.stream(option.names())
            .max(java.util.Comparator.comparingInt(String::length)).orElseThrow();
        out.add(new OptionDefault(command, longest, option.defaultValue(), c, option.hidden()));
      }
    }
  }
}
