package io.netpulse.launcher.remote;

import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Bytes a remote process printed, capped: once over the cap the oldest bytes are dropped, so the end (where tools
 * print summaries and errors) is always kept. Thread-safe; jsch writes stderr into it from its session thread.
 */
final class TailBuffer extends OutputStream {

  static final int DEFAULT_CAP_BYTES = 1 << 20;

  private final int capBytes;
  private byte[] data = new byte[256];
  private int size;
  private long dropped;

  TailBuffer(int capBytes) {
    this.capBytes = capBytes;
  }

  @Override
  public synchronized void write(int b) {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public synchronized void write(byte[] b, int off, int len) {
    if (len >= capBytes) {
      dropped += size + (len - capBytes);
      System.arraycopy(b, off + len - capBytes, ensure(capBytes), 0, capBytes);
      size = capBytes;
      return;
    }
    if (size + len > capBytes) {
      // drop a quarter more than needed so trimming is not repeated on every small write
      int drop = Math.min(size, size + len - capBytes + capBytes / 4);
      System.arraycopy(data, drop, data, 0, size - drop);
      size -= drop;
      dropped += drop;
    }
    System.arraycopy(b, off, ensure(size + len), size, len);
    size += len;
  }

  private byte[] ensure(int capacity) {
    if (capacity > data.length) {
      data = Arrays.copyOf(data, Math.min(capBytes, Math.max(capacity, data.length * 2)));
    }
    return data;
  }

  void append(String line) {
    byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
    write(bytes, 0, bytes.length);
  }

  synchronized String text() {
    return new String(data, 0, size, StandardCharsets.UTF_8);
  }

  /** The last {@code lines} non-blank lines, joined by " | " for one-line error messages. */
  String tail(int lines) {
    return lastLines(text(), lines);
  }

  static String lastLines(String text, int lines) {
    String[] all = text.strip().split("\n");
    StringBuilder out = new StringBuilder();
    for (int i = Math.max(0, all.length - lines); i < all.length; i++) {
      if (!all[i].isBlank()) {
        out.append(out.length() == 0 ? "" : " | ").append(all[i].strip());
      }
    }
    return out.toString();
  }

  synchronized long droppedBytes() {
    return dropped;
  }
}
