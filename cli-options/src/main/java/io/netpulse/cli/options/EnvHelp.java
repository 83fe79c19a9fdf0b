package io.netpulse.cli.options;

import java.lang.reflect.AnnotatedElement;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;
import picocli.CommandLine.Help;
import picocli.CommandLine.Help.Ansi.Text;
import picocli.CommandLine.Help.ColorScheme;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Option;

/**
 * Help that names, under each option, the environment variable its default reads ({@code Env: NETPULSE_…}), taken
 * from the option's own {@code ${env:…}} default so that the help cannot name another variable than the one read.
 * Deployments configure netpulse through these variables.
 */
public final class EnvHelp extends Help {

  private static final Pattern ENV_DEFAULT = Pattern.compile("\\$\\{env:(NETPULSE_[A-Z0-9_]+)");

  private EnvHelp(CommandSpec spec, ColorScheme scheme) {
    super(spec, scheme);
  }

  /** Uses this help for {@code cli} and every subcommand it has now. */
  public static CommandLine install(CommandLine cli) {
    return cli.setHelpFactory(EnvHelp::new);
  }

  @Override
  public IOptionRenderer createDefaultOptionRenderer() {
    IOptionRenderer base = super.createDefaultOptionRenderer();
    return (option, labels, scheme) -> {
      Text[][] rows = base.render(option, labels, scheme);
      Set<String> names = envNames(option);
      if (names.isEmpty() || rows.length == 0) {
        return rows;
      }
      Text[] line = new Text[rows[0].length];
      Arrays.fill(line, scheme.text(""));
      line[line.length - 1] = scheme.text("Env: " + String.join(", ", names));
      Text[][] withEnv = Arrays.copyOf(rows, rows.length + 1);
      withEnv[rows.length] = line;
      return withEnv;
    };
  }

  /** The NETPULSE_ variables of the option's annotated default, before picocli replaced them by their values. */
  public static Set<String> envNames(OptionSpec option) {
    Set<String> names = new LinkedHashSet<>();
    if (option.userObject() instanceof AnnotatedElement element && element.getAnnotation(Option.class) != null) {
      Matcher m = ENV_DEFAULT.matcher(element.getAnnotation(Option.class).defaultValue());
      while (m.find()) {
        names.add(m.group(1));
      }
    }
    return names;
  }
}
