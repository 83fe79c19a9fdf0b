package io.netpulse.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * Class data sharing (AppCDS) for the JVMs tests start: one archive of the classes a netpulse JVM loads, dumped once per
 * class path and build, mapped by every child JVM started with that class path. Loading, parsing and verifying those
 * classes was about a third of a child's CPU (a 5-s {@code netpulse demo}: 13 CPU-seconds without the archive, 9 with
 * it), and the cli module's tests start some fifty such JVMs on two cores.
 *
 * <p>The classes are those listed in {@code child-classes.lst.gz} (a {@code -XX:DumpLoadedClassList} of a
 * {@code netpulse demo} run; {@code testbed/update-child-classes} makes it again): a class it no longer names is loaded
 * as usual. CDS refuses a class path with a non-empty directory, so the class path's directories (a module's
 * {@code target/classes} and {@code target/test-classes}) are copied to jars first. Where anything fails, the child
 * runs without the archive, as before; a JVM that cannot use the archive (a jar changed since the dump) ignores it
 * silently.
 *
 * <p>On only where the system property {@value #DIR_PROPERTY} names a directory for the jars and archives (the cli
 * module's surefire configuration sets it): a module whose tests start one or two children would pay the dump (~20
 * CPU-seconds) without getting it back.
 */
final class ChildClassShare {

  static final String DIR_PROPERTY = "netpulse.test.child-cds.dir";
  private static final String CLASS_LIST = "child-classes.lst.gz";
  private static final long DUMP_TIMEOUT_S = 300;

  /** The class path with its directories as jars, and the archive to map with it. */
  record Shared(String classPath, Path archive) {
    List<String> flags() {
      return List.of("-XX:SharedArchiveFile=" + archive);
    }
  }

  private ChildClassShare() {}

  /**
   * The archive for {@code classPath} (dumped now if this is the first child with it), or empty: not enabled, or the
   * dump failed (said on stderr once, with the dump's log).
   */
  static Optional<Shared> of(String classPath) {
    String dirName = System.getProperty(DIR_PROPERTY);
    if (dirName == null || dirName.isBlank()) {
      return Optional.empty();
    }
    return of(classPath, Path.of(dirName), () -> {
      InputStream in = ChildClassShare.class.getResourceAsStream(CLASS_LIST);
      if (in == null) {
        throw new IOException(CLASS_LIST + " not on the class path");
      }
      return new GZIPInputStream(in);
    });
  }

  /** What to dump: a {@code -XX:DumpLoadedClassList} file's lines. */
  interface ClassList {
    InputStream open() throws IOException;
  }

  /** As {@link #of(String)}, with the jars and archives in {@code dir} and the classes {@code list} names. */
  static synchronized Optional<Shared> of(String classPath, Path dir, ClassList list) {
    try {
      Files.createDirectories(dir);
      // the test JVMs of a module run at once: one dumps, the others wait for its archive
      try (FileChannel channel = FileChannel.open(dir.resolve("lock"), StandardOpenOption.CREATE,
          StandardOpenOption.WRITE); FileLock lock = channel.lock()) {
        String jars = withDirectoriesAsJars(classPath, dir);
        String key = key(jars);
        Path archive = dir.resolve(key + ".jsa");
        Path failed = dir.resolve(key + ".failed");
        if (Files.exists(archive)) {
          return Optional.of(new Shared(jars, archive));
        }
        if (Files.exists(failed)) {
          return Optional.empty();
        }
        deleteOtherArchives(dir); // an earlier build's: 130 MB each
        if (dump(jars, dir, list, archive, dir.resolve(key + ".log"))) {
          return Optional.of(new Shared(jars, archive));
        }
        Files.writeString(failed, "see " + key + ".log\n");
        return Optional.empty();
      }
    } catch (IOException | RuntimeException e) {
      System.err.println("child JVMs: no shared class archive (" + e + ")");
      return Optional.empty();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return Optional.empty();
    }
  }

  private static boolean dump(String classPath, Path dir, ClassList classes, Path archive, Path log)
      throws IOException, InterruptedException {
    Path list = dir.resolve("child-classes.lst");
    try (InputStream in = classes.open()) {
      Files.copy(in, list, StandardCopyOption.REPLACE_EXISTING);
    }
    Path partial = dir.resolve(archive.getFileName() + ".partial");
    Files.deleteIfExists(partial);
    long t0 = System.nanoTime();
    Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xshare:dump",
        "-XX:SharedClassListFile=" + list, "-XX:SharedArchiveFile=" + partial, "-cp", classPath)
        .redirectErrorStream(true).redirectOutput(log.toFile()).start();
    if (!p.waitFor(DUMP_TIMEOUT_S, TimeUnit.SECONDS)) {
      p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
      System.err.println("child JVMs: the class archive's dump took over " + DUMP_TIMEOUT_S + " s; none used (" + log
          + ")");
      return false;
    }
    if (p.exitValue() != 0 || !Files.exists(partial)) {
      System.err.println("child JVMs: the class archive's dump failed with status " + p.exitValue() + "; none used ("
          + log + ")");
      return false;
    }
    Files.move(partial, archive, StandardCopyOption.ATOMIC_MOVE);
    System.err.printf(java.util.Locale.ROOT, "child JVMs: shared class archive %s dumped in %.1f s%n", archive,
        (System.nanoTime() - t0) / 1e9);
    return true;
  }

  private static void deleteOtherArchives(Path dir) throws IOException {
    try (Stream<Path> files = Files.list(dir)) {
      for (Path f : files.filter(f -> f.getFileName().toString().matches("child-.*\\.(jsa|failed|log)")).toList()) {
        Files.deleteIfExists(f); // a JVM still mapping one keeps its pages
      }
    }
  }

  /** The class path with each directory replaced by a jar of its files, made again when a file is newer. */
  private static String withDirectoriesAsJars(String classPath, Path dir) throws IOException {
    List<String> out = new ArrayList<>();
    for (String entry : classPath.split(java.io.File.pathSeparator)) {
      Path p = Path.of(entry);
      if (!Files.isDirectory(p)) {
        out.add(entry);
        continue;
      }
      Path jar = dir.resolve(p.getFileName() + "-" + hash(p.toAbsolutePath().toString()).substring(0, 12) + ".jar");
      if (!Files.exists(jar) || newestFile(p) > Files.getLastModifiedTime(jar).toMillis()) {
        writeJar(p, jar);
      }
      out.add(jar.toString());
    }
    return String.join(java.io.File.pathSeparator, out);
  }

  private static long newestFile(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(Files::isRegularFile).mapToLong(f -> {
        try {
          return Files.getLastModifiedTime(f).toMillis();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
      }).max().orElse(0);
    }
  }

  private static void writeJar(Path root, Path jar) throws IOException {
    Path partial = jar.resolveSibling(jar.getFileName() + ".partial");
    List<Path> files;
    try (Stream<Path> walk = Files.walk(root)) {
      files = walk.filter(Files::isRegularFile).sorted().toList();
    }
    try (OutputStream os = Files.newOutputStream(partial); JarOutputStream out = new JarOutputStream(os)) {
      for (Path f : files) {
        out.putNextEntry(new JarEntry(root.relativize(f).toString().replace(java.io.File.separatorChar, '/')));
        Files.copy(f, out);
        out.closeEntry();
      }
    }
    Files.move(partial, jar, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }

  /** Names the class path and its jars' sizes and times: a rebuilt jar makes a new archive (CDS would refuse the old). */
  private static String key(String classPath) throws IOException {
    StringBuilder text = new StringBuilder(System.getProperty("java.home")).append('\n');
    for (String entry : classPath.split(java.io.File.pathSeparator)) {
      Path p = Path.of(entry);
      text.append(entry);
      if (Files.isRegularFile(p)) {
        text.append(' ').append(Files.size(p)).append(' ').append(Files.getLastModifiedTime(p).toMillis());
      }
      text.append('\n');
    }
    return "child-" + hash(text.toString()).substring(0, 16);
  }

  private static String hash(String text) {
    try {
      return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
