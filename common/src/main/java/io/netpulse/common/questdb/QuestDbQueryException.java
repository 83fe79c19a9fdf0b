package io.netpulse.common.questdb;

/** QuestDB refused a SQL statement; the message is QuestDB's own, with the query it refers to. */
public final class QuestDbQueryException extends RuntimeException {

  public QuestDbQueryException(String message) {
    super(message);
  }

  public QuestDbQueryException(String message, Throwable cause) {
    super(message, cause);
  }
}
