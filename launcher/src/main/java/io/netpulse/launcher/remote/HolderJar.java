package io.netpulse.launcher.remote;

import io.netpulse.holder.HolderMain;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The connection holder's jar (module holder: its classes and picocli, under 1 MiB), the one file the launcher puts
 * on the hosts of a concurrent-connections test in place of netpulse's whole jar (over 100 MB). Found, in this
 * order: where the user says ({@code run --remote-jar}, {@code NETPULSE_REMOTE_JAR}); as the holder's own jar on the
 * class path (a build tree, where Maven puts holder/target/netpulse-holder.jar there); else made from netpulse's
 * jar, which holds the same classes, by taking {@link HolderMain#JAR_CONTENT} from it. Made with fixed entry times
 * in a fixed order, the same netpulse jar always gives the same bytes, so a host that has them is not sent them again.
 */
public final class HolderJar {

  private static final String MAIN_CLASS = HolderMain.class.getName();
  /** Entry times of the jar made from netpulse's: fixed, so that its sha256 depends on its content only. */
  private static final LocalDateTime ENTRY_TIME = LocalDateTime.of(2025, 1, 1, 0, 0);
  private static Path made;

  private HolderJar() {}

  /** The jar to put on the hosts: {@code chosen} if not null (checked to be the holder's), else as above. */
  public static Path locate(Path chosen) throws RemoteFailure {
    if (chosen != null) {
      String main = mainClass(chosen).orElse("none");
      if (!main.equals(MAIN_CLASS)) {
        throw new RemoteFailure("localhost", "--remote-jar " + chosen + " is not the connection holder's jar (its "
            + "Main-Class is " + main + ", not " + MAIN_CLASS + "); use holder/target/netpulse-holder.jar or leave "
            + "the option out");
      }
      return chosen;
    }
    Optional<Path> source = codeSource();
    if (source.isEmpty()) {
      throw new RemoteFailure("localhost", "the connection holder's classes are not in a jar, so there is no jar to "
          + "put on the hosts for the concurrent-connections test; build netpulse (mvn -DskipTests package) and use "
          + "bin/netpulse");
    }
    if (mainClass(source.get()).filter(MAIN_CLASS::equals).isPresent()) {
      return source.get();
    }
    return madeFrom(source.get());
  }

  /** The jar HolderMain is loaded from: the holder's own, or netpulse's. */
  private static Optional<Path> codeSource() {
    try {
      Path p = Path.of(HolderMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
      return Files.isRegularFile(p) ? Optional.of(p) : Optional.empty();
    } catch (URISyntaxException | RuntimeException e) {
      return Optional.empty();
    }
  }

  /** Made once per launcher process, in a temporary file. */
  private static synchronized Path madeFrom(Path netpulseJar) throws RemoteFailure {
    if (made != null && Files.isRegularFile(made)) {
      return made;
    }
    try {
      Path file = Files.createTempFile("netpulse-holder-", ".jar");
      file.toFile().deleteOnExit();
      try (OutputStream out = Files.newOutputStream(file)) {
        write(netpulseJar, out);
      }
      made = file;
      return file;
    } catch (IOException e) {
      throw new RemoteFailure("localhost", "cannot make the connection holder's jar from " + netpulseJar + " to put "
          + "it on the hosts: " + e.getMessage());
    }
  }

  /**
   * Writes the holder's jar: a manifest naming {@link HolderMain}, then every entry of {@code source} under
   * {@link HolderMain#JAR_CONTENT}, sorted by name.
   */
  static void write(Path source, OutputStream out) throws IOException {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, MAIN_CLASS);
    try (JarFile from = new JarFile(source.toFile()); JarOutputStream to = new JarOutputStream(out)) {
      JarEntry head = new JarEntry(JarFile.MANIFEST_NAME);
      head.setTimeLocal(ENTRY_TIME);
      to.putNextEntry(head);
      manifest.write(to);
      to.closeEntry();
      List<JarEntry> entries = Collections.list(from.entries()).stream()
          .filter(e -> !e.isDirectory() && HolderMain.JAR_CONTENT.stream().anyMatch(e.getName()::startsWith))
          .sorted(Comparator.comparing(JarEntry::getName)).toList();
      for (JarEntry e : entries) {
        JarEntry copy = new JarEntry(e.getName());
        copy.setTimeLocal(ENTRY_TIME);
        to.putNextEntry(copy);
        try (InputStream in = from.getInputStream(e)) {
          in.transferTo(to);
        }
        to.closeEntry();
      }
    }
  }

  /** The jar's Main-Class, if {@code file} is a jar with one. */
  private static Optional<String> mainClass(Path file) {
    if (!Files.isRegularFile(file)) {
      return Optional.empty();
    }
    try (JarFile jar = new JarFile(file.toFile())) {
      return Optional.ofNullable(jar.getManifest())
          .map(m -> m.getMainAttributes().getValue(Attributes.Name.MAIN_CLASS));
    } catch (IOException e) {
      return Optional.empty();
    }
  }
}
