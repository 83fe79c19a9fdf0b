package io.netpulse.cli.command;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A broker key with a self-signed certificate for 127.0.0.1 and a truststore holding that certificate, made with the
 * JDK's keytool, as a private CA's cluster would hand them out.
 *
 * @param keystore   PKCS12 with the broker's key
 * @param truststore PKCS12 with the broker's certificate
 * @param password   of both
 */
record SelfSignedTls(Path keystore, Path truststore, String password) {

  static SelfSignedTls create(Path dir, String name, String password) throws Exception {
    Files.createDirectories(dir);
    Path keystore = dir.resolve(name + "-broker.p12");
    Path cert = dir.resolve(name + "-broker.pem");
    Path truststore = dir.resolve(name + "-truststore.p12");
    keytool("-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
        "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1,dns:localhost",
        "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", password, "-keypass", password);
    keytool("-exportcert", "-alias", "broker", "-rfc", "-file", cert.toString(),
        "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", password);
    keytool("-importcert", "-noprompt", "-alias", "broker", "-file", cert.toString(),
        "-keystore", truststore.toString(), "-storetype", "PKCS12", "-storepass", password);
    return new SelfSignedTls(keystore, truststore, password);
  }

  private static void keytool(String... args) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
    command.addAll(List.of(args));
    Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IllegalStateException("keytool " + args[0] + " failed: " + out);
    }
  }
}
