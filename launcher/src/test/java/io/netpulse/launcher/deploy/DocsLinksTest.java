package io.netpulse.launcher.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The documentation stands alone: every relative link in every Markdown file leads to a file of the repository and,
 * where it names one, to a heading that exists there; no source, comment or document names a Markdown file the
 * repository does not have, or a design document it never had.
 */
@Tag("unit")
class DocsLinksTest {

  private static final Set<String> SKIPPED_DIRS = Set.of("target", "node_modules");
  private static final Set<String> TEXT_EXTENSIONS =
      Set.of("md", "java", "js", "html", "css", "yml", "yaml", "properties", "sh", "xml", "json");
  private static final Pattern SCHEME = Pattern.compile("^[a-zA-Z][a-zA-Z0-9+.-]*:");
  /** A path to a Markdown file as prose names it: at least one directory, e.g. docs/topics.md. */
  private static final Pattern MD_PATH = Pattern.compile("[A-Za-z0-9_.-]+(?:/[A-Za-z0-9_.-]+)*/[A-Za-z0-9_.-]+\\.md\\b");
  /** "DESIGN" in capitals, or the section sign, as in the citations of a design document the repository lacks. */
  private static final Pattern ABSENT_DESIGN_DOC = Pattern.compile("\\bDESIGN\\b|\u00a7");

  private final Path root = RepoFiles.root();

  @Test
  void everyRelativeLinkInTheReadmeAndTheDocsLeadsToAFileAndHeadingThatExist() {
    List<Path> markdown = files(p -> p.toString().endsWith(".md"));
    assertThat(markdown).as("Markdown files under %s", root).contains(root.resolve("README.md"));
    List<String> problems = new ArrayList<>();
    int checked = 0;
    for (Path file : markdown) {
      MarkdownLinks doc = new MarkdownLinks(read(file));
      for (MarkdownLinks.Link link : doc.links()) {
        if (SCHEME.matcher(link.target()).find()) {
          continue; // http(s), mailto: not the repository's to keep
        }
        checked++;
        String problem = problem(file, doc, link.target());
        if (problem != null) {
          problems.add(root.relativize(file) + ":" + link.line() + ": " + link.target() + ": " + problem);
        }
      }
    }
    assertThat(problems).as("broken relative links (%d checked)", checked).isEmpty();
    assertThat(checked).as("relative links checked").isGreaterThan(100);
  }

  @Test
  void noFileNamesAMarkdownFileOrDesignDocumentTheRepositoryDoesNotHave() {
    List<String> existing = files(p -> p.toString().endsWith(".md")).stream()
        .map(p -> root.relativize(p).toString().replace('\\', '/')).toList();
    List<String> problems = new ArrayList<>();
    for (Path file : files(DocsLinksTest::isText)) {
      if (file.getFileName().toString().equals(DocsLinksTest.class.getSimpleName() + ".java")) {
        continue; // names the patterns it looks for
      }
      String[] lines = read(file).split("\n", -1);
      for (int i = 0; i < lines.length; i++) {
        Matcher design = ABSENT_DESIGN_DOC.matcher(lines[i]);
        if (design.find()) {
          problems.add(root.relativize(file) + ":" + (i + 1) + ": cites '" + design.group() + "', which no file here is");
        }
        Matcher md = MD_PATH.matcher(lines[i]);
        while (md.find()) {
          String named = md.group().replaceFirst("^(\\.\\./)+|^\\./", "");
          if (existing.stream().noneMatch(e -> e.equals(named) || e.endsWith("/" + named))) {
            problems.add(root.relativize(file) + ":" + (i + 1) + ": names " + md.group() + ", which does not exist");
          }
        }
      }
    }
    assertThat(problems).isEmpty();
  }

  @Test
  void anchorsAreMadeAsGitHubMakesThem() {
    assertThat(MarkdownLinks.slug("Comparing: `netpulse compare A B` and `netpulse export`"))
        .isEqualTo("comparing-netpulse-compare-a-b-and-netpulse-export");
    assertThat(MarkdownLinks.slug("udp_stream's two shapes")).isEqualTo("udp_streams-two-shapes");
    assertThat(MarkdownLinks.slug("The pipeline on the test hosts' CPUs lowers their figures"))
        .isEqualTo("the-pipeline-on-the-test-hosts-cpus-lowers-their-figures");
    MarkdownLinks doc = new MarkdownLinks("# A\n```\n# not a heading [x](nowhere.md)\n```\n## A\n`[y](code.md)` [z](real.md)\n");
    assertThat(doc.anchors()).containsExactly("a", "a-1");
    assertThat(doc.links()).containsExactly(new MarkdownLinks.Link(6, "real.md"));
  }

  /** Why a link target is broken, or null when it is not. */
  private String problem(Path from, MarkdownLinks fromDoc, String target) {
    int hash = target.indexOf('#');
    String path = hash < 0 ? target : target.substring(0, hash);
    String anchor = hash < 0 ? null : target.substring(hash + 1);
    Path resolved = path.isEmpty() ? from : from.getParent().resolve(path).normalize();
    if (!resolved.startsWith(root)) {
      return "leads outside the repository";
    }
    if (!Files.exists(resolved)) {
      return "no such file";
    }
    if (anchor == null || !resolved.toString().endsWith(".md")) {
      return null;
    }
    Set<String> anchors = resolved.equals(from) ? fromDoc.anchors() : new MarkdownLinks(read(resolved)).anchors();
    return anchors.contains(anchor) ? null : "no heading makes #" + anchor + " (there are: " + anchors + ")";
  }

  private static boolean isText(Path p) {
    String name = p.getFileName().toString();
    int dot = name.lastIndexOf('.');
    return (dot > 0 && TEXT_EXTENSIONS.contains(name.substring(dot + 1))) || name.equals("Dockerfile")
        || name.equals(".env.example") || p.getParent().endsWith("bin") || p.getParent().endsWith(".ci");
  }

  private List<Path> files(java.util.function.Predicate<Path> which) {
    try (Stream<Path> walk = Files.walk(root)) {
      return walk.filter(Files::isRegularFile)
          .filter(p -> root.relativize(p).getNameCount() == 1 || !skipped(root.relativize(p).getParent()))
          .filter(which).sorted().toList();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Build output and hidden directories (.git, a demo's .netpulse) but CI's .ci. */
  private static boolean skipped(Path dir) {
    for (Path part : dir) {
      String name = part.toString();
      if (SKIPPED_DIRS.contains(name) || (name.startsWith(".") && !name.equals(".ci"))) {
        return true;
      }
    }
    return false;
  }

  private static String read(Path file) {
    try {
      return Files.readString(file);
    } catch (IOException e) {
      throw new UncheckedIOException(file + " cannot be read", e);
    }
  }
}
