package io.netpulse.launcher.deploy;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The links and heading anchors of one Markdown text, as GitHub renders them: fenced code blocks and inline code
 * are not Markdown (a {@code # HELP} line in a code block is no heading, a {@code [x](y)} in backquotes no link).
 */
final class MarkdownLinks {

  /** A link or image target as written, with the 1-based line it is on. */
  record Link(int line, String target) {}

  private static final Pattern FENCE = Pattern.compile("^\\s{0,3}(```|~~~)");
  private static final Pattern HEADING = Pattern.compile("^\\s{0,3}(#{1,6})\\s+(.*?)\\s*#*\\s*$");
  private static final Pattern INLINE_CODE = Pattern.compile("`[^`]*`");
  private static final Pattern LINK = Pattern.compile("\\]\\(\\s*<?([^)\\s>]+)>?(?:\\s+\"[^\"]*\")?\\s*\\)");
  private static final Pattern LINK_TEXT = Pattern.compile("!?\\[([^\\]]*)\\]\\([^)]*\\)");

  private final List<Link> links = new ArrayList<>();
  private final Set<String> anchors = new LinkedHashSet<>();

  MarkdownLinks(String text) {
    boolean inFence = false;
    Map<String, Integer> seen = new HashMap<>();
    String[] lines = text.split("\n", -1);
    for (int i = 0; i < lines.length; i++) {
      String line = lines[i];
      if (FENCE.matcher(line).find()) {
        inFence = !inFence;
        continue;
      }
      if (inFence) {
        continue;
      }
      Matcher h = HEADING.matcher(line);
      if (h.matches()) {
        String slug = slug(h.group(2));
        int n = seen.merge(slug, 1, Integer::sum) - 1;
        anchors.add(n == 0 ? slug : slug + "-" + n); // GitHub numbers repeated headings
      }
      Matcher l = LINK.matcher(INLINE_CODE.matcher(line).replaceAll("``"));
      while (l.find()) {
        links.add(new Link(i + 1, l.group(1)));
      }
    }
  }

  List<Link> links() {
    return links;
  }

  Set<String> anchors() {
    return anchors;
  }

  /**
   * GitHub's anchor for a heading: its rendered text (links as their text, code without backquotes) in lower case,
   * without punctuation other than '-' and '_', spaces as '-'.
   */
  static String slug(String heading) {
    String text = LINK_TEXT.matcher(heading).replaceAll("$1").replace("`", "").toLowerCase(java.util.Locale.ROOT);
    return text.replaceAll("[^\\p{L}\\p{M}\\p{N}\\p{Pc} -]", "").replace(' ', '-');
  }
}
