package io.netpulse.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Every test class in every module carries exactly one tier tag on the class: unit, kafka, root, browser or
 * measurement (what each means: README, testing). {@code mvn test -Dtiers=unit} runs a tier by these tags, so an
 * untagged class would run in no tier, and a class with two would run in both. Read from the sources, so that one
 * test sees every module's classes; a class with a test method is a test class.
 */
@Tag("unit")
class TierTagsContractTest {

  static final List<String> TIERS = List.of("unit", "kafka", "root", "browser", "measurement");
  /** Tags that are not tiers: exclusive runs a test alone (launcher/pom.xml). */
  static final List<String> OTHER_TAGS = List.of("exclusive");

  private static final Pattern TEST_ANNOTATION =
      Pattern.compile("@(?:org\\.junit\\.jupiter\\.(?:api|params)\\.)?(Test|ParameterizedTest|RepeatedTest|TestFactory|TestTemplate)\\b");
  private static final Pattern TAG = Pattern.compile("@(?:org\\.junit\\.jupiter\\.api\\.)?Tag\\(\\s*\"([^\"]*)\"\\s*\\)");
  private static final Pattern TAG_IN_CODE = Pattern.compile("@(?:org\\.junit\\.jupiter\\.api\\.)?Tag\\(");
  private static final Pattern TAGS_CONTAINER = Pattern.compile("@(?:org\\.junit\\.jupiter\\.api\\.)?Tags\\b");
  /** The top-level type: declared at column 0 (nested types are indented). */
  private static final Pattern TOP_LEVEL_TYPE =
      Pattern.compile("^(?:public |final |abstract |sealed |non-sealed )*(?:class|record|interface|enum) \\w+", Pattern.MULTILINE);
  /** Comments and string literals, so that an annotation named in Javadoc or a string does not count. */
  private static final Pattern COMMENT_OR_STRING =
      Pattern.compile("//[^\\n]*|/\\*.*?\\*/|\"\"\".*?\"\"\"|\"(?:\\\\.|[^\"\\\\\\n])*\"", Pattern.DOTALL);

  @Test
  void everyTestClassHasExactlyOneTierTagOnTheClass() throws IOException {
    Path root = repositoryRoot();
    Map<String, List<String>> problems = new TreeMap<>();
    int classes = 0;
    for (Path file : testSources(root)) {
      String problem = problem(Files.readString(file));
      if (problem == null) {
        continue;
      }
      if (!problem.isEmpty()) {
        problems.computeIfAbsent(problem, k -> new ArrayList<>()).add(root.relativize(file).toString());
      }
      classes++;
    }
    // a wrong root or source layout would find nothing and pass: the repository has well over a hundred
    assertThat(classes).as("test classes found under " + root).isGreaterThan(100);
    StringBuilder message = new StringBuilder();
    problems.forEach((p, files) -> message.append('\n').append(p).append(":\n  ").append(String.join("\n  ", files)));
    assertThat(problems).as("test classes whose tier tags are wrong (give each one @Tag of " + TIERS
        + ", on the class):" + message).isEmpty();
  }

  /** The problem of one source file: null if it is no test class, "" if it is one and is tagged as it should be. */
  static String problem(String source) {
    String code = withoutCommentsAndStrings(source);
    if (!TEST_ANNOTATION.matcher(code).find()) {
      return null;
    }
    if (TAGS_CONTAINER.matcher(code).find()) {
      return "@Tags container (give each tag its own @Tag, so that this check can read them)";
    }
    Matcher type = TOP_LEVEL_TYPE.matcher(code);
    int classStart = type.find() ? type.start() : code.length();
    List<String> classTiers = new ArrayList<>();
    boolean exclusive = false;
    // found in the code (comments and strings blanked, positions kept), the name read from the source there
    Matcher tag = TAG.matcher(source);
    Matcher inCode = TAG_IN_CODE.matcher(code);
    while (inCode.find()) {
      if (!tag.find(inCode.start()) || tag.start() != inCode.start()) {
        return "a @Tag whose name is not a plain string literal";
      }
      String name = tag.group(1);
      if (!TIERS.contains(name) && !OTHER_TAGS.contains(name)) {
        return "unknown tag \"" + name + "\" (tiers: " + TIERS + "; others: " + OTHER_TAGS + ")";
      }
      exclusive |= name.equals("exclusive");
      if (TIERS.contains(name)) {
        if (inCode.start() > classStart) {
          return "tier tag \"" + name + "\" on a method or nested class (a tier is the whole class's)";
        }
        classTiers.add(name);
      }
    }
    if (classTiers.isEmpty()) {
      return "no tier tag";
    }
    if (classTiers.size() > 1) {
      return "more than one tier tag " + classTiers;
    }
    if (exclusive && classTiers.get(0).equals("unit")) {
      // a unit test measures nothing, so needs no machine to itself; and -Dtiers=unit skips the exclusive execution
      return "a unit test tagged exclusive";
    }
    return "";
  }

  /** Comments and string contents blanked to spaces (line breaks and quotes kept): positions match the source. */
  static String withoutCommentsAndStrings(String source) {
    StringBuilder out = new StringBuilder(source);
    Matcher m = COMMENT_OR_STRING.matcher(source);
    while (m.find()) {
      int from = m.start();
      int to = m.end();
      if (source.charAt(from) == '"') { // keep the quotes, blank what is between them
        int quotes = source.startsWith("\"\"\"", from) ? 3 : 1;
        from += quotes;
        to -= quotes;
      }
      for (int i = from; i < to; i++) {
        if (out.charAt(i) != '\n') {
          out.setCharAt(i, ' ');
        }
      }
    }
    return out.toString();
  }

  /** The topmost directory with a pom.xml above the module the test runs in. */
  static Path repositoryRoot() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir.getParent() != null && Files.exists(dir.getParent().resolve("pom.xml"))) {
      dir = dir.getParent();
    }
    return dir;
  }

  /** Every .java file under a src/test/java of any module, build output and VCS metadata left out. */
  static List<Path> testSources(Path root) throws IOException {
    return javaSources(root, "src/test/java/");
  }

  /**
   * Every .java file under {@code sourceDir} (src/main/java/, src/test/java/) of any module below {@code root}: the
   * contract tests read the sources themselves, so that they see every module whatever was built; build output and
   * VCS metadata are left out.
   */
  static List<Path> javaSources(Path root, String sourceDir) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(p -> p.toString().endsWith(".java"))
          .filter(p -> root.relativize(p).toString().contains(sourceDir))
          .filter(p -> Stream.of("target", ".git", "node_modules").noneMatch(skip -> root.relativize(p).startsWith(skip)
              || root.relativize(p).toString().contains("/" + skip + "/")))
          .sorted().toList();
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  @Test
  void theCheckSeesWhatItMustRefuse() {
    String tagged = "import org.junit.jupiter.api.Tag;\n@Tag(\"exclusive\") // alone\n@Tag(\"root\")\nclass A {\n"
        + "  @Test void t() {}\n}\n";
    assertThat(problem(tagged)).isEmpty();
    assertThat(problem("class A {\n  @Test void t() {}\n}\n")).isEqualTo("no tier tag");
    assertThat(problem("@Tag(\"unit\")\n@Tag(\"kafka\")\nclass A {\n  @Test void t() {}\n}\n"))
        .isEqualTo("more than one tier tag [unit, kafka]");
    assertThat(problem("@Tag(\"unit\")\nclass A {\n  @Test @Tag(\"root\") void t() {}\n}\n"))
        .startsWith("tier tag \"root\" on a method");
    assertThat(problem("@Tag(\"unit\")\nclass A {\n  @Test @Tag(\"exclusive\") void t() {}\n}\n"))
        .isEqualTo("a unit test tagged exclusive");
    assertThat(problem("@Tag(\"Unit\")\nclass A {\n  @Test void t() {}\n}\n")).startsWith("unknown tag \"Unit\"");
    // a helper without test methods is no test class; Javadoc naming {@code @Test} does not make one
    assertThat(problem("/** used by a {@code @Test} */\nclass Helper {\n}\n")).isNull();
    // a tier named in a comment or a string is not a tag
    assertThat(problem("// @Tag(\"kafka\") would be wrong here\n@Tag(\"unit\")\nclass A {\n"
        + "  String s = \"@Tag(\\\"root\\\")\";\n  @Test void t() {}\n}\n")).isEmpty();
  }
}
