package io.netpulse.common.kafka;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.config.ConfigDef;
import org.apache.kafka.common.config.ConfigException;

/**
 * Reads a {@code --kafka-config} file: Kafka client settings in Java properties format, the same file Kafka's own
 * tools take as {@code --command-config}. Every key must be a Kafka producer, consumer or admin client setting that
 * netpulse does not own; values are checked as Kafka would check them. Errors name the file, the line and the key,
 * never a value (a value may be a password).
 */
public final class KafkaClientSettingsFile {

  private static final String BOOTSTRAP_SERVERS = "bootstrap.servers";

  /** A setting netpulse needs for correctness, with why, and the values that agree with netpulse (if any). */
  private record Owned(String why, Set<String> agreeing) {}

  private static final Map<String, Owned> OWNED = owned();

  private static final List<ConfigDef> CLIENT_DEFS =
      List.of(ProducerConfig.configDef(), ConsumerConfig.configDef(), AdminClientConfig.configDef());

  private KafkaClientSettingsFile() {}

  /**
   * The Kafka to use, from {@code --bootstrap-servers} and/or the file; empty when neither names one (the embedded
   * broker is used then).
   *
   * @throws KafkaSettingsException when the file cannot be read or holds a key netpulse cannot accept
   */
  public static Optional<KafkaConnection> resolve(String bootstrapServersOption, Path file) {
    String option = bootstrapServersOption == null || bootstrapServersOption.isBlank() ? null
        : bootstrapServersOption.strip();
    if (file == null) {
      return Optional.ofNullable(option).map(KafkaConnection::plain);
    }
    Map<String, String> settings = read(file);
    String fromFile = settings.remove(BOOTSTRAP_SERVERS);
    if (fromFile != null && option != null && !sameServers(fromFile, option)) {
      throw new KafkaSettingsException(file + " sets bootstrap.servers to " + fromFile.strip()
          + " but --bootstrap-servers is " + option + ": remove one or make them agree");
    }
    String servers = option != null ? option : fromFile == null || fromFile.isBlank() ? null : fromFile.strip();
    if (servers == null) {
      throw new KafkaSettingsException("--kafka-config " + file + " is for an external Kafka, but neither the file "
          + "(bootstrap.servers) nor --bootstrap-servers names one");
    }
    return Optional.of(new KafkaConnection(servers, settings, file));
  }

  /** The file's settings in file order, checked; bootstrap.servers included. */
  static Map<String, String> read(Path file) {
    String text;
    try {
      text = Files.readString(file, StandardCharsets.ISO_8859_1); // what Properties.load(InputStream) reads
    } catch (IOException e) {
      throw new KafkaSettingsException("cannot read --kafka-config " + file + ": " + describe(e), e);
    }
    Map<String, String> settings = new LinkedHashMap<>();
    Map<String, Integer> lines = keyLines(file, text);
    Properties all = load(file, text);
    for (Map.Entry<String, Integer> e : lines.entrySet()) {
      String key = e.getKey();
      String where = file + " line " + e.getValue() + ": ";
      String value = all.getProperty(key);
      if (BOOTSTRAP_SERVERS.equals(key)) {
        settings.put(key, value);
        continue;
      }
      Owned owned = OWNED.get(key);
      if (owned != null) {
        if (!owned.agreeing().contains(value.strip().toLowerCase(java.util.Locale.ROOT))) {
          throw new KafkaSettingsException(where + key + " is set by netpulse and cannot be changed: " + owned.why());
        }
        continue; // says what netpulse sets anyway (client.properties files often hold acks=all)
      }
      requireValidClientSetting(where, key, value);
      settings.put(key, value);
    }
    return settings;
  }

  /** Where each key is set (its last line when set twice, as Properties keeps the last value). */
  private static Map<String, Integer> keyLines(Path file, String text) {
    Map<String, Integer> lines = new LinkedHashMap<>();
    String[] raw = text.split("\r\n|\r|\n", -1);
    boolean continued = false;
    for (int i = 0; i < raw.length; i++) {
      String line = raw[i];
      if (continued) { // the rest of the value above
        continued = endsWithOddBackslashes(line);
        continue;
      }
      String trimmed = line.stripLeading();
      if (trimmed.isEmpty() || trimmed.startsWith("#") || trimmed.startsWith("!")) {
        continue; // a comment never continues
      }
      continued = endsWithOddBackslashes(line);
      Properties one = load(file, trimmed);
      for (String key : one.stringPropertyNames()) {
        lines.remove(key);
        lines.put(key, i + 1);
      }
    }
    return lines;
  }

  private static boolean endsWithOddBackslashes(String line) {
    int n = 0;
    for (int i = line.length() - 1; i >= 0 && line.charAt(i) == '\\'; i--) {
      n++;
    }
    return n % 2 == 1;
  }

  private static Properties load(Path file, String text) {
    Properties p = new Properties();
    try {
      p.load(new StringReader(text));
    } catch (IOException | IllegalArgumentException e) {
      // IllegalArgumentException: a malformed \\uXXXX escape
      throw new KafkaSettingsException("--kafka-config " + file + " is not a properties file: " + describe(e), e);
    }
    return p;
  }

  private static void requireValidClientSetting(String where, String key, String value) {
    ConfigDef.ConfigKey def = null;
    for (ConfigDef d : CLIENT_DEFS) {
      def = d.configKeys().get(key);
      if (def != null) {
        break;
      }
    }
    if (def == null) {
      throw new KafkaSettingsException(where + "unknown Kafka client setting '" + key + "' (not a producer, consumer "
          + "or admin client setting; check its spelling)");
    }
    try {
      Object parsed = ConfigDef.parseType(key, value, def.type);
      if (def.validator != null) {
        def.validator.ensureValid(key, parsed);
      }
    } catch (ConfigException e) {
      // Kafka's message quotes the value: keep it only when the value is not a secret
      throw new KafkaSettingsException(where + "invalid value for " + key
          + (def.type == ConfigDef.Type.PASSWORD ? "" : ": " + e.getMessage()));
    }
  }

  private static boolean sameServers(String a, String b) {
    return Set.of(a.replace(" ", "").split(",")).equals(Set.of(b.replace(" ", "").split(",")));
  }

  private static String describe(Exception e) {
    return e instanceof java.nio.file.NoSuchFileException ? "no such file"
        : e instanceof java.nio.file.AccessDeniedException ? "permission denied"
        : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
  }

  private static Map<String, Owned> owned() {
    Owned exactlyOnce = new Owned("netpulse's producers are idempotent with acks=all so that no line is lost or "
        + "written twice", Set.of());
    Owned serde = new Owned("netpulse chooses how each of its topics is (de)serialized", Set.of());
    Owned groups = new Owned("netpulse manages its consumers' groups and offsets", Set.of());
    Map<String, Owned> m = new LinkedHashMap<>();
    m.put("enable.idempotence", new Owned(exactlyOnce.why(), Set.of("true")));
    m.put("acks", new Owned(exactlyOnce.why(), Set.of("all", "-1")));
    m.put("max.in.flight.requests.per.connection", new Owned("more than 5 in flight would break the idempotent "
        + "producer's ordering; netpulse sets it per producer", Set.of()));
    m.put("delivery.timeout.ms", new Owned("the collector never expires a batch (an expired batch can be overtaken "
        + "by later lines); netpulse sets it per producer", Set.of()));
    m.put("transactional.id", new Owned("the processor's transactions are managed by Kafka Streams", Set.of()));
    m.put("isolation.level", new Owned("netpulse reads committed records only, as the processor writes "
        + "exactly-once", Set.of("read_committed")));
    m.put("processing.guarantee", new Owned("set with --guarantee", Set.of()));
    m.put("application.id", new Owned("set with --application-id", Set.of()));
    m.put("group.id", groups);
    m.put("group.instance.id", groups);
    m.put("enable.auto.commit", groups);
    m.put("auto.offset.reset", groups);
    m.put("key.serializer", serde);
    m.put("value.serializer", serde);
    m.put("key.deserializer", serde);
    m.put("value.deserializer", serde);
    return Map.copyOf(m);
  }
}
