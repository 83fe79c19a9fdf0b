package io.netpulse.launcher.deploy;

import static org.junit.jupiter.api.Assertions.fail;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** The Dockerfile read as text: pinned stages, a non-root user, the collector's tools, known variables. */
@Tag("unit")
class DockerfileTest {

  static final String FILE = "Dockerfile";

  /** The instructions, continuation lines joined, comments dropped. */
  static List<String> instructions() {
    String joined = RepoFiles.read(FILE).replaceAll("(?m)^\\s*#.*\\n", "").replaceAll("\\\\\\s*\\n", " ");
    List<String> out = new ArrayList<>();
    for (String line : joined.split("\n")) {
      if (!line.isBlank()) {
        out.add(line.strip());
      }
    }
    return out;
  }

  @Test
  void everyStageStartsFromAPinnedImage() {
    List<String> problems = new ArrayList<>();
    Set<String> stages = new HashSet<>();
    int froms = 0;
    for (String line : instructions()) {
      Matcher m = Pattern.compile("(?i)^FROM\\s+(?:--platform=\\S+\\s+)?(\\S+)(?:\\s+AS\\s+(\\S+))?").matcher(line);
      if (!m.find()) {
        continue;
      }
      froms++;
      String image = m.group(1);
      if (!stages.contains(image) && !DockerImages.isPinned(image)) {
        problems.add(FILE + ": stage FROM '" + image + "' is not pinned (a version tag, not latest, or a digest)");
      }
      if (m.group(2) != null) {
        stages.add(m.group(2));
      }
    }
    if (froms < 2) {
      problems.add(FILE + ": expected a build stage and a runtime stage, found " + froms + " FROM");
    }
    report(problems);
  }

  @Test
  void theImageRunsAsANonRootUser() {
    List<String> lines = instructions();
    String lastFromOrUser = null;
    for (String line : lines) {
      if (line.matches("(?i)^(FROM|USER)\\s.*")) {
        lastFromOrUser = line;
      }
    }
    if (lastFromOrUser == null || !lastFromOrUser.toUpperCase().startsWith("USER ")) {
      fail(FILE + ": the runtime stage has no USER after its FROM, so it runs as root");
    }
    String user = lastFromOrUser.substring(5).strip().split(":")[0];
    if (user.equals("root") || user.equals("0")) {
      fail(FILE + ": USER " + user + " is root");
    }
  }

  @Test
  void theRuntimeHasTheCollectorsSamplersAndTheJar() {
    List<String> problems = new ArrayList<>();
    String all = String.join("\n", instructions());
    for (String pkg : List.of("sysstat", "iproute2")) {
      if (!Pattern.compile("apt-get install[^\\n]*--no-install-recommends[^\\n]*\\b" + pkg + "\\b").matcher(all).find()) {
        problems.add(FILE + ": RUN apt-get install --no-install-recommends must install " + pkg + " (collector agent)");
      }
    }
    if (!all.contains("-DskipTests") || !all.contains("cli/target/netpulse.jar")) {
      problems.add(FILE + ": the build stage must package the shaded jar with -DskipTests and copy cli/target/netpulse.jar");
    }
    if (!Pattern.compile("(?m)^ENTRYPOINT\\s").matcher(all).find()) {
      problems.add(FILE + ": no ENTRYPOINT");
    }
    report(problems);
  }

  /** A module the build stage lacks fails the image build (holder, for one, is a dependency of the launcher). */
  @Test
  void theBuildStageCopiesEveryModule() {
    List<String> problems = new ArrayList<>();
    List<String> lines = instructions();
    Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(RepoFiles.read("pom.xml"));
    while (m.find()) {
      String module = m.group(1).strip();
      if (!lines.contains("COPY " + module + " " + module)) {
        problems.add(FILE + ": the build stage does not COPY " + module + " " + module + " (a module of pom.xml)");
      }
    }
    report(problems);
  }

  @Test
  void whatItCopiesFromTheContextIsNotDockerignored() {
    List<String> ignored = new ArrayList<>();
    for (String line : RepoFiles.read(".dockerignore").split("\n")) {
      if (!line.isBlank() && !line.startsWith("#")) {
        ignored.add(line.strip());
      }
    }
    List<String> problems = new ArrayList<>();
    for (String line : instructions()) {
      if (!line.matches("(?i)^COPY\\s.*") || line.contains("--from=")) {
        continue;
      }
      String[] words = line.split("\\s+");
      for (int i = 1; i < words.length - 1; i++) {
        String source = words[i].replaceFirst("^\\./", "");
        String top = source.split("/")[0];
        if (ignored.contains(top) || ignored.contains(source)) {
          problems.add(FILE + ": COPY " + source + ", but .dockerignore excludes it");
        } else if (!java.nio.file.Files.exists(RepoFiles.root().resolve(source))) {
          problems.add(FILE + ": COPY " + source + ", which is not in the repository");
        }
      }
    }
    report(problems);
  }

  @Test
  void environmentVariablesItSetsAreReadByTheCode() {
    List<String> problems = new ArrayList<>();
    Set<String> known = new HashSet<>(CodeEnvironment.readByScript());
    CodeEnvironment.optionsByCommand().values().forEach(options -> options.forEach(o -> known.addAll(o.envNames())));
    for (String line : instructions()) {
      if (!line.toUpperCase().startsWith("ENV ")) {
        continue;
      }
      Matcher m = Pattern.compile("(NETPULSE_[A-Z0-9_]+)=").matcher(line);
      while (m.find()) {
        if (!known.contains(m.group(1))) {
          problems.add(FILE + ": ENV " + m.group(1) + " is read by neither a netpulse option nor bin/netpulse");
        }
      }
    }
    report(problems);
  }

  private static void report(List<String> problems) {
    if (!problems.isEmpty()) {
      fail(String.join("\n", problems));
    }
  }
}
