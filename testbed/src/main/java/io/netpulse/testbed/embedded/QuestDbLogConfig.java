package io.netpulse.testbed.embedded;

import io.questdb.log.LogFactory;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * QuestDB's own logger (not slf4j) configuration for the embedded store: everything to a size-capped
 * rolling file under {@code rootDir/log}, nothing to the console, where QuestDB would otherwise print
 * every query and connection.
 */
final class QuestDbLogConfig {

  static final String ROLL_SIZE = "16m";
  static final String DIR_SIZE_LIMIT = "64m";
  /**
   * System property: the JVM's QuestDB log directory, for a JVM that starts and deletes many stores (the tests).
   * QuestDB's logger outlives the store that configured it; when its directory was deleted, its next roll (daily,
   * at midnight UTC) failed to open a file and its worker printed "Could not append log [fd=-1]" in a loop.
   */
  static final String LOG_DIR_PROPERTY = "netpulse.questdb.log.dir";

  private QuestDbLogConfig() {}

  /**
   * Writes {@code rootDir/conf/log.conf} and points QuestDB's logger at it. QuestDB's logger is one
   * per JVM and is configured by whichever start comes first, so later starts in the same JVM keep
   * logging to the first store's {@code log} directory, or to {@value #LOG_DIR_PROPERTY} when set.
   */
  static void install(Path rootDir) throws IOException {
    Path conf = Files.createDirectories(rootDir.resolve("conf"));
    String logDir = System.getProperty(LOG_DIR_PROPERTY);
    String location = logDir == null ? "${log.dir}" : Files.createDirectories(Path.of(logDir)).toAbsolutePath().toString();
    String text = String.join("\n",
        "# written by netpulse EmbeddedQuestDb at every start",
        "writers=file",
        "w.file.class=io.questdb.log.LogRollingFileWriter",
        "w.file.location=" + location + "/questdb.log.${date:yyyyMMdd}",
        "w.file.level=INFO,ERROR,CRITICAL,ADVISORY",
        "w.file.rollEvery=day",
        "w.file.rollSize=" + ROLL_SIZE,
        "w.file.sizeLimit=" + DIR_SIZE_LIMIT,
        "");
    Files.writeString(conf.resolve("log.conf"), text, StandardCharsets.UTF_8);
    // Must precede the first QuestDB logger lookup (Bootstrap's Os.init does one), else QuestDB
    // falls back to its built-in configuration, which prints every line to stdout.
    LogFactory.configureRootDir(rootDir.toString());
  }
}
