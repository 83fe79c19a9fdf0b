package io.netpulse.launcher.procedure;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * One command line read into the form in which two command lines of a tool mean the same: its program's name, its
 * environment, its options with their values (in any order, as the tools take them), its other words in order and,
 * for netperf, its test-specific options after {@code --} in order. A seed's line is read as the seed prints it
 * (with its placeholders replaced and the shell's {@code &}, redirections and {@code nohup} left out) and compared
 * with what netpulse generates; every deliberate difference is applied by name, each one listed with its reason in
 * docs/seeds.md ("What netpulse runs, seed by seed").
 */
record SeedLine(String program, Map<String, String> env, Map<String, String> options, List<String> words,
    List<String> testOptions) {

  /** Options that take a value, per program; other words that start with '-' are flags. */
  private static final Map<String, Set<String>> VALUED = Map.of(
      "netperf", Set.of("-H", "-t", "-l", "-p", "-D"),
      "netserver", Set.of("-p"),
      "iperf3", Set.of("-c", "-b", "-t", "-l", "-p", "-P"),
      "iperf", Set.of("-c", "-b", "-t", "-P", "-p", "-i", "-f"),
      "sockperf", Set.of("-i", "--pps", "-m", "-t", "--port"),
      "qperf", Set.of("-t", "-m", "-lp"),
      "ping", Set.of("-c"),
      "sar", Set.of("-n"));
  private static final Set<String> SHELL = Set.of("&", "2>&1", "nohup");

  /**
   * A seed's line, e.g. {@code netperf -H [server] -t TCP_STREAM -l 300 -p $i -- -m 1440 & done}, with each
   * placeholder (key) replaced by its value: pairs {@code "[server]", "198.18.0.2", "$i", "5001"}.
   */
  static SeedLine seed(String line, Object... placeholders) {
    String text = line;
    for (int i = 0; i + 1 < placeholders.length; i += 2) {
      text = text.replace(String.valueOf(placeholders[i]), String.valueOf(placeholders[i + 1]));
    }
    int loop = text.indexOf("; do ");
    if (loop >= 0) {
      text = text.substring(loop + "; do ".length()); // the command the seed's loop runs
    }
    List<String> tokens = new ArrayList<>();
    String[] words = text.trim().split("\\s+");
    for (int i = 0; i < words.length; i++) {
      String w = words[i];
      if (w.startsWith("#") || w.equals("done") || w.equals(";")) {
        break; // a comment, or the end of the seed's loop
      }
      if (w.equals(">") || w.equals(">>")) {
        i++; // and its file
      } else if (!SHELL.contains(w) && !w.startsWith(">") && !w.startsWith("2>")) {
        tokens.add(w);
      }
    }
    return read(Map.of(), tokens);
  }

  /** What netpulse starts for {@code c}. */
  static SeedLine of(HostCommand c) {
    return read(c.command().env(), c.command().argv());
  }

  private static SeedLine read(Map<String, String> env, List<String> argv) {
    if (argv.get(0).equals("stdbuf")) { // line-buffered output (the launcher reads a line as it comes): not the tool's
      int i = 1;
      while (i < argv.size() && argv.get(i).startsWith("-")) {
        i++;
      }
      return read(env, argv.subList(i, argv.size()));
    }
    String program = argv.get(0).substring(argv.get(0).lastIndexOf('/') + 1);
    Set<String> valued = VALUED.getOrDefault(program, Set.of());
    Map<String, String> options = new TreeMap<>();
    List<String> words = new ArrayList<>();
    List<String> testOptions = new ArrayList<>();
    for (int i = 1; i < argv.size(); i++) {
      String a = argv.get(i);
      if (a.equals("--") && program.equals("netperf")) {
        testOptions.addAll(argv.subList(i + 1, argv.size()));
        break;
      }
      if (a.startsWith("--") && a.contains("=")) {
        options.put(a.substring(0, a.indexOf('=')), a.substring(a.indexOf('=') + 1));
      } else if (valued.contains(a) && i + 1 < argv.size()) {
        options.put(a, argv.get(++i));
      } else if (a.startsWith("-") && a.length() > 1) {
        options.put(a, "");
      } else {
        words.add(a);
      }
    }
    return new SeedLine(program, new TreeMap<>(env), options, words, testOptions);
  }

  private SeedLine withOptions(Map<String, String> o) {
    return new SeedLine(program, env, o, words, testOptions);
  }

  /** The option set to {@code value} ("" for a flag). */
  SeedLine with(String option, Object value) {
    Map<String, String> o = new TreeMap<>(options);
    o.put(option, String.valueOf(value));
    return withOptions(o);
  }

  SeedLine without(String option) {
    Map<String, String> o = new TreeMap<>(options);
    o.remove(option);
    return withOptions(o);
  }

  // the deliberate differences, each as docs/seeds.md names it

  /** netperf {@code -D 1}: demo mode, one interim line per second that the processor reads while it runs. */
  SeedLine netperfDemoMode() {
    return with("-D", 1);
  }

  /**
   * netperf {@code -l} / iperf {@code -t} / sockperf {@code -t}: the test's warm-up plus measuring time, where the seed's
   * figure is one over the whole run; given here for the tests the seed's numbers do not add up to.
   */
  SeedLine runsFor(String option, long seconds) {
    return with(option, seconds);
  }

  /** A server in the foreground ({@code netserver -D}, sockperf without {@code --daemonize}): its PID is known. */
  SeedLine foreground() {
    return program.equals("netserver") ? with("-D", "") : without("--daemonize");
  }

  /** A tool's default port given explicitly ({@code -p 12865}, {@code --port 11111}, qperf {@code -lp 19765}). */
  SeedLine explicitPort(String option, int port) {
    return with(option, port);
  }

  /** sar in the C locale with ISO times in UTC, one format for the parser. */
  SeedLine sarFormat() {
    Map<String, String> e = new TreeMap<>(env);
    e.putAll(Map.of("LC_ALL", "C", "S_TIME_FORMAT", "ISO", "TZ", "UTC"));
    return new SeedLine(program, e, options, words, testOptions);
  }

  /** sar every second until stopped: no count ({@code sar -n DEV 1 180}), 1 s where the seed says 2. */
  SeedLine sarEverySecondUntilStopped() {
    return new SeedLine(program, env, options, List.of("1"), testOptions);
  }

  /** ping and other tools whose output is parsed: in the C locale. */
  SeedLine cLocale() {
    Map<String, String> e = new TreeMap<>(env);
    e.put("LC_ALL", "C");
    return new SeedLine(program, e, options, words, testOptions);
  }

  /** The words (positional arguments) given; for c1000k's directory and the like the program name stays. */
  SeedLine words(String... w) {
    return new SeedLine(program, env, options, List.of(w), testOptions);
  }

  @Override
  public String toString() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("program", program);
    m.put("env", env);
    m.put("options", options);
    m.put("words", words);
    m.put("after --", testOptions);
    return m.toString();
  }
}
