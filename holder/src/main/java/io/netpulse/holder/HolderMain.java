package io.netpulse.holder;

import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * Entry point of netpulse-holder.jar, the jar the launcher puts on the hosts of a concurrent-connections test:
 * {@code java -jar netpulse-holder.jar server|client ...}, the same commands as {@code netpulse connections}.
 */
public final class HolderMain {

  /** The name in usage lines: how the launcher starts it. */
  static final String NAME = "java -jar netpulse-holder.jar";
  /**
   * Everything the jar holds besides its manifest: this package and picocli (the JDK is the host's). The launcher
   * takes these entries from netpulse's jar to make this one; HolderJarTest checks the build's jar against them.
   */
  public static final List<String> JAR_CONTENT = List.of("io/netpulse/holder/", "picocli/");

  private HolderMain() {}

  public static void main(String[] args) {
    System.exit(commandLine().execute(args));
  }

  public static CommandLine commandLine() {
    CommandLine cli = new CommandLine(new ConnectionsCommand());
    cli.setCommandName(NAME);
    cli.setExecutionExceptionHandler(HolderMain::handle);
    withVersion(cli);
    return cli;
  }

  /** {@code --version}, here and in each subcommand: the build's version (picocli leaves it empty otherwise). */
  private static void withVersion(CommandLine cli) {
    cli.getCommandSpec().versionProvider(() -> new String[] {"netpulse-holder " + version()});
    cli.getSubcommands().values().forEach(HolderMain::withVersion);
  }

  /**
   * The version the build wrote into {@code version.properties} beside this class: the project's one version, which
   * netpulse's own {@code --version} reads too (holder is in netpulse's jar).
   */
  public static String version() {
    try (java.io.InputStream in = HolderMain.class.getResourceAsStream("version.properties")) {
      if (in == null) {
        return "unknown (no version.properties)";
      }
      java.util.Properties p = new java.util.Properties();
      p.load(in);
      String v = p.getProperty("version", "").strip();
      return v.isEmpty() || v.startsWith("${") ? "unknown (version.properties not filled in)" : v;
    } catch (java.io.IOException e) {
      return "unknown (" + e.getMessage() + ")";
    }
  }

  /** One line per failure, as netpulse's own CLI prints them; a stack trace only with NETPULSE_DEBUG=1. */
  static int handle(Exception e, CommandLine cli, ParseResult parsed) {
    if (e instanceof ConnectionsException) {
      cli.getErr().println("netpulse: " + e.getMessage());
      return ConnectionsException.EXIT_CODE;
    }
    cli.getErr().println("netpulse: " + e.getClass().getSimpleName() + ": " + e.getMessage()
        + " (set NETPULSE_DEBUG=1 for details)");
    if ("1".equals(System.getenv("NETPULSE_DEBUG"))) {
      e.printStackTrace(cli.getErr());
    }
    return 1;
  }
}
