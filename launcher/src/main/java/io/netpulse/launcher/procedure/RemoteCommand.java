package io.netpulse.launcher.procedure;

import io.netpulse.launcher.plan.ArgumentCheck;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * A command for a remote host as an argument vector (program first), with optional environment.
 * {@link #render()} gives the POSIX shell text in which every value is exactly one word: an SSH
 * exec channel hands its command to the remote login shell, so nothing from a plan may reach it unquoted.
 */
public record RemoteCommand(Map<String, String> env, List<String> argv) {

  /** Characters that never need quoting in a POSIX shell word (as Python's shlex.quote). */
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_@%+=:,./-]+");

  public RemoteCommand {
    if (argv.isEmpty()) {
      throw new IllegalArgumentException("a command needs a program");
    }
    String program = argv.get(0);
    if (program == null || program.isEmpty() || program.startsWith("-") || program.contains("=")) {
      // env(1) would take such a word for an option or an assignment, not a program
      throw new IllegalArgumentException("program name '" + program + "' is empty, starts with '-' or contains '='");
    }
    for (String a : argv) {
      if (a == null || a.indexOf('\0') >= 0) {
        // a NUL cannot be passed in argv at all; the value would be cut short silently
        throw new IllegalArgumentException("argument of " + argv.get(0) + " is null or contains NUL");
      }
    }
    env.forEach((k, v) -> {
      if (!ArgumentCheck.isEnvName(k) || v.indexOf('\0') >= 0) {
        throw new IllegalArgumentException("bad environment entry " + k);
      }
    });
    env = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(env));
    argv = List.copyOf(argv);
  }

  public static RemoteCommand of(String program, Object... args) {
    List<String> argv = new ArrayList<>();
    argv.add(program);
    for (Object a : args) {
      argv.add(String.valueOf(a));
    }
    return new RemoteCommand(Map.of(), argv);
  }

  /** The same command run with {@code name=value} in its environment (through {@code env}, so it stays quoted). */
  public RemoteCommand withEnv(String name, String value) {
    Map<String, String> e = new LinkedHashMap<>(env);
    e.put(name, value);
    return new RemoteCommand(e, argv);
  }

  public String program() {
    return argv.get(0);
  }

  /** Programs that run the next one after their single option: {@code prlimit --nofile=N:N P}, {@code stdbuf -oL P}. */
  private static final java.util.Set<String> WRAPPERS = java.util.Set.of("prlimit", "stdbuf");

  /** The program a wrapper runs ({@code stdbuf -oL iperf3 ...}: iperf3), else {@link #program()}. */
  public String wrappedProgram() {
    return WRAPPERS.contains(argv.get(0)) && argv.size() > 2 ? argv.get(2) : argv.get(0);
  }

  /** Shell text: {@code env 'K=V' … program 'arg' …}, every word quoted where needed. */
  public String render() {
    List<String> words = new ArrayList<>();
    if (!env.isEmpty()) {
      words.add("env");
      env.forEach((k, v) -> words.add(quote(k + "=" + v)));
    }
    for (String a : argv) {
      words.add(quote(a));
    }
    return String.join(" ", words);
  }

  /** One shell word: as is when plain, else in single quotes with each {@code '} written as {@code '\''}. */
  public static String quote(String s) {
    if (!s.isEmpty() && PLAIN.matcher(s).matches()) {
      return s;
    }
    return "'" + s.replace("'", "'\\''") + "'";
  }

  @Override
  public String toString() {
    return render();
  }
}
