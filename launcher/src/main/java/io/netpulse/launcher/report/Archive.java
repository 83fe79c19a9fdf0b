package io.netpulse.launcher.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import io.netpulse.common.event.ToolOutputEvent;
import io.netpulse.common.json.Json;
import io.netpulse.launcher.UserError;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One execution as a self-contained file ({@code netpulse export}), read back by {@code report FILE} and
 * {@code compare FILE FILE} with no Kafka. Its sections are the report's own ({@link MetricSection}: the results-topic
 * event, the repetitions with their windows and CPU use, the SUT's 1-s series), so a report of the file is the report
 * of the topics. Layout documented in docs/compare.md, "The archive"; {@link #SCHEMA} changes with it.
 *
 * @param format       always {@link #FORMAT}: tells an archive from other JSON
 * @param resultsTopic the topic the results were read from (the report names it)
 * @param labels       the plan's labels when the run events carry them (null: none known)
 * @param hostFacts    what preflight found on the hosts, as the run events carry it (null: none known)
 * @param toolOutput   each finished tool's whole output in the execution's runs
 */
public record Archive(String format, int schema, long exportedAtMs, String plan, String execution,
    String resultsTopic, Map<String, String> labels, JsonNode hostFacts, List<MetricSection> sections,
    List<ToolOutputEvent> toolOutput) {

  public static final String FORMAT = "netpulse-archive";
  public static final int SCHEMA = 1;

  public Archive {
    sections = sections == null ? List.of() : List.copyOf(sections);
    toolOutput = toolOutput == null ? List.of() : List.copyOf(toolOutput);
  }

  /** The report this archive holds, as {@code netpulse report} read it from the topics at export time. */
  public PlanReport report() {
    return new PlanReport(plan, resultsTopic, exportedAtMs, sections);
  }

  public void write(Path file) {
    try {
      Json.mapper().writerWithDefaultPrettyPrinter().writeValue(file.toFile(), this);
    } catch (IOException e) {
      throw new UserError("cannot write " + file + ": " + e.getMessage() + " (choose another --output FILE)");
    }
  }

  /** Whether {@code json} is an archive (its {@code format} field), for readers that take several kinds of file. */
  public static boolean is(JsonNode json) {
    return json != null && json.isObject() && FORMAT.equals(json.path("format").asText(null));
  }

  /** Reads an archive, with one line naming the file and what is wrong when it is not one. */
  public static Archive read(Path file) {
    return of(readJson(file), file);
  }

  /** An archive from JSON already read from {@code file}. */
  public static Archive of(JsonNode json, Path file) {
    if (!is(json)) {
      throw new UserError(file + ": not a netpulse archive (no \"format\": \"" + FORMAT + "\"; write one with "
          + "'netpulse export EXECUTION -o FILE')");
    }
    int schema = json.path("schema").asInt(0);
    if (schema < 1 || schema > SCHEMA) {
      throw new UserError(file + ": archive schema " + json.path("schema") + " is not one this netpulse reads (1 to "
          + SCHEMA + "); use a newer netpulse");
    }
    Archive a;
    try {
      a = Json.mapper().treeToValue(json, Archive.class);
    } catch (JsonProcessingException | IllegalArgumentException e) {
      throw new UserError(file + ": damaged netpulse archive: " + oneLine(e));
    }
    for (MetricSection s : a.sections()) {
      if (s == null || s.result() == null || s.result().test() == null || s.result().metric() == null
          || s.result().values() == null) {
        throw new UserError(file + ": damaged netpulse archive: a section without its result's test, metric or values");
      }
    }
    return a;
  }

  /** A JSON file, or one line naming the file and what is wrong. */
  public static JsonNode readJson(Path file) {
    try {
      byte[] bytes = Files.readAllBytes(file);
      JsonNode json = Json.mapper().readTree(bytes);
      if (json == null || json.isMissingNode()) {
        throw new UserError(file + ": empty file, expected JSON (a netpulse archive or 'netpulse run --format json')");
      }
      return json;
    } catch (NoSuchFileException e) {
      throw new UserError(file + ": no such file");
    } catch (AccessDeniedException e) {
      throw new UserError(file + ": cannot read it (permission denied)");
    } catch (MismatchedInputException e) {
      throw new UserError(file + ": empty file, expected JSON (a netpulse archive or 'netpulse run --format json')");
    } catch (JsonProcessingException e) {
      throw new UserError(file + ": not JSON (line " + e.getLocation().getLineNr() + ", column "
          + e.getLocation().getColumnNr() + "): expected a netpulse archive or 'netpulse run --format json'");
    } catch (IOException e) {
      throw new UserError(file + ": cannot read it: " + e.getMessage());
    }
  }

  private static String oneLine(Exception e) {
    String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }
}
