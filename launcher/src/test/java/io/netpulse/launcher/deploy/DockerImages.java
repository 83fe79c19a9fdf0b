package io.netpulse.launcher.deploy;

import java.util.regex.Pattern;

/** What counts as a pinned image reference. */
final class DockerImages {

  /** A tag that names a version: starts with a digit, or v and a digit (4.4.0, 17.0.16_8-jre-noble, v3.5.0). */
  private static final Pattern VERSION_TAG = Pattern.compile("v?[0-9][A-Za-z0-9_.-]*");

  private DockerImages() {}

  /** NAME:TAG with a version tag, or NAME@sha256:DIGEST; "latest", no tag or a bare word tag is not. */
  static boolean isPinned(String image) {
    if (image.matches(".+@sha256:[0-9a-f]{64}")) {
      return true;
    }
    int slash = image.lastIndexOf('/');
    int colon = image.lastIndexOf(':');
    if (colon <= slash) {
      return false; // no tag: latest
    }
    String tag = image.substring(colon + 1);
    return !tag.contains("latest") && VERSION_TAG.matcher(tag).matches();
  }
}
