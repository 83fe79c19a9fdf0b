package io.netpulse.testbed.embedded;

import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;

/**
 * Listeners an embedded broker adds beside its PLAINTEXT one to stand in for a secured cluster: SASL_PLAINTEXT with
 * mechanism PLAIN and/or SSL (server certificate only). The broker keeps talking to itself over PLAINTEXT.
 *
 * @param plainUsers          user name to password accepted on the SASL_PLAINTEXT listener; empty: no such listener
 * @param sslKeystore         PKCS12 keystore with the broker's key and certificate; null: no SSL listener
 * @param sslKeystorePassword the keystore's (and key's) password
 */
public record SecuredListeners(Map<String, String> plainUsers, Path sslKeystore, String sslKeystorePassword) {

  public SecuredListeners {
    plainUsers = Map.copyOf(plainUsers);
    if (sslKeystore != null && sslKeystorePassword == null) {
      throw new IllegalArgumentException("an SSL keystore needs its password");
    }
  }

  public static SecuredListeners saslPlain(Map<String, String> plainUsers) {
    if (plainUsers.isEmpty()) {
      throw new IllegalArgumentException("a SASL listener needs at least one user");
    }
    return new SecuredListeners(plainUsers, null, null);
  }

  public static SecuredListeners ssl(Path keystore, String password) {
    return new SecuredListeners(Map.of(), keystore, password);
  }

  boolean sasl() {
    return !plainUsers.isEmpty();
  }

  boolean ssl() {
    return sslKeystore != null;
  }

  /** Adds the listeners on these ports of 127.0.0.1 (0: that listener is not wanted). */
  void addTo(Properties p, int saslPort, int sslPort) {
    if (saslPort != 0) {
      addListener(p, "SASL_PLAINTEXT", saslPort);
      p.put("sasl.enabled.mechanisms", "PLAIN");
      StringBuilder jaas = new StringBuilder("org.apache.kafka.common.security.plain.PlainLoginModule required");
      plainUsers.forEach((user, password) ->
          jaas.append(" user_").append(user).append("=\"").append(password).append('"'));
      p.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", jaas.append(';').toString());
    }
    if (sslPort != 0) {
      addListener(p, "SSL", sslPort);
      p.put("listener.name.ssl.ssl.keystore.location", sslKeystore.toString());
      p.put("listener.name.ssl.ssl.keystore.type", "PKCS12");
      p.put("listener.name.ssl.ssl.keystore.password", sslKeystorePassword);
      p.put("listener.name.ssl.ssl.key.password", sslKeystorePassword);
    }
  }

  private static void addListener(Properties p, String name, int port) {
    p.put("listeners", p.get("listeners") + "," + name + "://127.0.0.1:" + port);
    p.put("advertised.listeners", p.get("advertised.listeners") + "," + name + "://127.0.0.1:" + port);
    p.put("listener.security.protocol.map", p.get("listener.security.protocol.map") + "," + name + ":" + name);
  }

  /** Users and keystore only: the passwords stay out of logs. */
  @Override
  public String toString() {
    return "SecuredListeners[plainUsers=" + plainUsers.keySet() + ", sslKeystore=" + sslKeystore + "]";
  }
}
