package io.netpulse.launcher.services;

import io.netpulse.common.questdb.QuestDbQueryException;
import io.netpulse.common.questdb.QuestDbSqlClient;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * SQL against a QuestDB in another process, over its HTTP {@code /exec?query=...}, as an operator queries the store:
 * rows keyed by column name, numbers as Long or Double, timestamps as QuestDB's ISO-8601 text. A store that does not
 * answer is an IOException here, which the checks expect while the store is down.
 */
final class QuestDbHttp {

  private final QuestDbSqlClient client;

  QuestDbHttp(String baseUrl) {
    this.client = new QuestDbSqlClient(baseUrl);
  }

  /** @throws IOException when QuestDB does not answer or answers with an error (its message included) */
  List<Map<String, Object>> query(String sql) throws IOException {
    try {
      return client.query(sql);
    } catch (QuestDbQueryException e) {
      throw new IOException(e.getMessage(), e);
    }
  }
}
