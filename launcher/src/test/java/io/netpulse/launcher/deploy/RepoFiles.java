package io.netpulse.launcher.deploy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The repository's deployment files, found from the module directory the tests run in. */
final class RepoFiles {

  /** {@code ${NAME}}, {@code ${NAME:-default}}, {@code ${NAME-default}}, {@code ${NAME:?message}}; not {@code $${...}}. */
  static final Pattern COMPOSE_VARIABLE = Pattern.compile("(?<!\\$)\\$\\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?-)([^}]*)|:?\\?[^}]*)?}");

  private RepoFiles() {}

  static Path root() {
    Path dir = Path.of("").toAbsolutePath();
    while (dir != null && !Files.exists(dir.resolve("docker-compose.yml"))) {
      dir = dir.getParent();
    }
    if (dir == null) {
      throw new IllegalStateException("no docker-compose.yml above " + Path.of("").toAbsolutePath());
    }
    return dir;
  }

  static String read(String relative) {
    try {
      return Files.readString(root().resolve(relative));
    } catch (IOException e) {
      throw new UncheckedIOException(relative + " cannot be read", e);
    }
  }

  static JsonNode yaml(String relative) {
    try {
      return new YAMLMapper().readTree(read(relative));
    } catch (IOException e) {
      throw new AssertionError(relative + " is not valid YAML: " + e.getMessage(), e);
    }
  }

  /** The value compose would use with none of the variables set: each replaced by its default, or "" without one. */
  static String withDefaults(String text) {
    Matcher m = COMPOSE_VARIABLE.matcher(text);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      m.appendReplacement(out, Matcher.quoteReplacement(m.group(3) == null ? "" : m.group(3)));
    }
    m.appendTail(out);
    return out.toString().replace("$$", "$");
  }
}
