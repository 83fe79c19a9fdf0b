package io.netpulse.testbed.embedded;

import io.questdb.PropertyKey;
import java.util.HashMap;
import java.util.Map;

/** The QuestDB settings of the embedded store, as the environment map QuestDB's bootstrap reads. */
final class QuestDbSettings {

  /** Two cores are shared by the whole pipeline: one thread per QuestDB pool is plenty for it. */
  static final int WORKERS_PER_POOL = 1;

  private QuestDbSettings() {}

  static Map<String, String> env(int httpPort) {
    Map<String, String> env = new HashMap<>();
    put(env, PropertyKey.HTTP_NET_BIND_TO, "127.0.0.1:" + httpPort);
    put(env, PropertyKey.LINE_HTTP_ENABLED, "true"); // /api/v2/write, what influxdb-client-java uses
    // Everything else listens on 0.0.0.0 by default and is not needed: off.
    put(env, PropertyKey.HTTP_MIN_ENABLED, "false");
    put(env, PropertyKey.PG_ENABLED, "false");
    put(env, PropertyKey.LINE_TCP_ENABLED, "false");
    put(env, PropertyKey.LINE_UDP_ENABLED, "false");
    put(env, PropertyKey.TELEMETRY_ENABLED, "false");
    put(env, PropertyKey.TELEMETRY_DISABLE_COMPLETELY, "true");
    put(env, PropertyKey.POSTHOG_ENABLED, "false");
    put(env, PropertyKey.METRICS_ENABLED, "false");
    put(env, PropertyKey.CAIRO_MAT_VIEW_ENABLED, "false");
    String workers = Integer.toString(WORKERS_PER_POOL);
    put(env, PropertyKey.SHARED_NETWORK_WORKER_COUNT, workers);
    put(env, PropertyKey.SHARED_QUERY_WORKER_COUNT, workers);
    put(env, PropertyKey.SHARED_WRITE_WORKER_COUNT, workers);
    put(env, PropertyKey.WAL_APPLY_WORKER_COUNT, workers);
    put(env, PropertyKey.EXPORT_WORKER_COUNT, workers);
    return env;
  }

  private static void put(Map<String, String> env, PropertyKey key, String value) {
    env.put(key.getEnvVarName(), value);
  }
}
