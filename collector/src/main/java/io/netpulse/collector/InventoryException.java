package io.netpulse.collector;

/** An inventory that cannot be used; the message names the file, the host and what to fix. */
public final class InventoryException extends RuntimeException {

  public InventoryException(String message) {
    super(message);
  }
}
