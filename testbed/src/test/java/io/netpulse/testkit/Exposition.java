package io.netpulse.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * A /metrics body as Prometheus' own Python client parses it ({@code prometheus_client.parser
 * .text_string_to_metric_families}, Debian's python3-prometheus-client, installed by bin/install-deps): a body it
 * cannot read fails the test with the parser's message. Prometheus' Java client has no text-format parser, only
 * writers, hence the Python one.
 */
public record Exposition(Map<String, Family> families, List<Sample> samples) {

  /** Debian's interpreter: the module is installed for it, not for any other python3 on the PATH. */
  public static final Path PYTHON = Path.of("/usr/bin/python3");

  private static final String SCRIPT = String.join("\n",
      "import json, sys",
      "from prometheus_client.parser import text_string_to_metric_families",
      "out = []",
      "for f in text_string_to_metric_families(sys.stdin.read()):",
      "    out.append({'name': f.name, 'type': f.type, 'help': f.documentation,",
      "                'samples': [{'name': s.name, 'labels': s.labels, 'value': repr(float(s.value))}",
      "                            for s in f.samples]})",
      "json.dump(out, sys.stdout)",
      "");

  public record Family(String name, String type, String help) {}

  public record Sample(String name, Map<String, String> labels, double value) {}

  /** Whether the parser is installed (tests skip themselves with a hint when it is not). */
  public static boolean parserAvailable() {
    if (!Files.isExecutable(PYTHON)) {
      return false;
    }
    try {
      Process p = new ProcessBuilder(PYTHON.toString(), "-c", "import prometheus_client.parser")
          .redirectErrorStream(true).start();
      p.getInputStream().readAllBytes();
      return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  public static Exposition parse(String text) {
    try {
      Process p = new ProcessBuilder(PYTHON.toString(), "-c", SCRIPT).start();
      CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
      CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
      try (OutputStream in = p.getOutputStream()) {
        in.write(text.getBytes(StandardCharsets.UTF_8));
      }
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new AssertionError("the Prometheus parser did not finish within 60 s");
      }
      if (p.exitValue() != 0) {
        throw new AssertionError("the Prometheus text parser refused the body: "
            + new String(err.get(), StandardCharsets.UTF_8).strip());
      }
      return fromJson(new ObjectMapper().readTree(out.get()));
    } catch (IOException | java.util.concurrent.ExecutionException e) {
      throw new IllegalStateException("cannot run " + PYTHON + " (install python3-prometheus-client)", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  private static Exposition fromJson(JsonNode root) {
    Map<String, Family> families = new LinkedHashMap<>();
    List<Sample> samples = new ArrayList<>();
    for (JsonNode f : root) {
      families.put(f.get("name").asText(), new Family(f.get("name").asText(), f.get("type").asText(),
          f.get("help").asText()));
      for (JsonNode s : f.get("samples")) {
        Map<String, String> labels = new LinkedHashMap<>();
        s.get("labels").fields().forEachRemaining(e -> labels.put(e.getKey(), e.getValue().asText()));
        samples.add(new Sample(s.get("name").asText(), labels, number(s.get("value").asText())));
      }
    }
    return new Exposition(families, samples);
  }

  private static double number(String repr) {
    return switch (repr) {
      case "inf" -> Double.POSITIVE_INFINITY;
      case "-inf" -> Double.NEGATIVE_INFINITY;
      case "nan" -> Double.NaN;
      default -> Double.parseDouble(repr);
    };
  }

  private static byte[] readAll(java.io.InputStream in) {
    try {
      return in.readAllBytes();
    } catch (IOException e) {
      return new byte[0];
    }
  }

  /** The samples named {@code name} whose labels pass {@code labels}. */
  public List<Sample> samples(String name, Predicate<Map<String, String>> labels) {
    return samples.stream().filter(s -> s.name().equals(name) && labels.test(s.labels())).toList();
  }

  /** Sum of the samples named {@code name} whose labels pass {@code labels}; NaN when there is none. */
  public double sum(String name, Predicate<Map<String, String>> labels) {
    List<Sample> found = samples(name, labels);
    return found.isEmpty() ? Double.NaN : found.stream().mapToDouble(Sample::value).sum();
  }

  public double sum(String name) {
    return sum(name, l -> true);
  }

  /** The one sample named {@code name} with exactly these labels; fails naming what there is otherwise. */
  public double value(String name, Map<String, String> labels) {
    List<Sample> found = samples(name, labels::equals);
    if (found.size() != 1) {
      throw new AssertionError(name + labels + " not found once; samples of that name: " + samples(name, l -> true));
    }
    return found.get(0).value();
  }

  /** The family's TYPE ({@code counter}, {@code gauge}, ...); the family of a counter has no {@code _total}. */
  public String type(String family) {
    Family f = families.get(family);
    if (f == null) {
      throw new AssertionError("no family " + family + " among " + families.keySet());
    }
    return f.type();
  }
}
