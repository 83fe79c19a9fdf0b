package io.netpulse.launcher.remote;

import java.util.Map;

/** Which package brings which program, and the install script --install-tools runs. */
final class Packages {

  static final int EXIT_NOT_ROOT = 90;
  static final int EXIT_NO_MANAGER = 91;

  private static final Map<String, String> DEBIAN = Map.ofEntries(Map.entry("netperf", "netperf"),
      Map.entry("netserver", "netperf"), Map.entry("iperf3", "iperf3"), Map.entry("iperf", "iperf"),
      Map.entry("qperf", "qperf"), Map.entry("sockperf", "sockperf"), Map.entry("sar", "sysstat"),
      Map.entry("ss", "iproute2"), Map.entry("ip", "iproute2"), Map.entry("ping", "iputils-ping"),
      Map.entry("prlimit", "util-linux"), Map.entry("stdbuf", "coreutils"), Map.entry("java", "openjdk-17-jre-headless"));
  private static final Map<String, String> RED_HAT = Map.ofEntries(Map.entry("ss", "iproute"),
      Map.entry("ip", "iproute"), Map.entry("ping", "iputils"), Map.entry("java", "java-17-openjdk-headless"));

  /**
   * Arguments "tool=debian-package=redhat-package" (names from the maps above only). Root or password-less sudo;
   * apt-get first (Debian keeps netperf in non-free, so that component is added to the Debian sources when netperf
   * has no candidate yet), then dnf, then yum.
   */
  static final String INSTALL_SCRIPT = String.join("\n",
      "if [ \"$(id -u)\" = 0 ]; then SUDO=",
      "elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then SUDO='sudo -n'",
      "else exit " + EXIT_NOT_ROOT + "; fi",
      "debs=; rpms=; netperf=no",
      "for a in \"$@\"; do t=${a%%=*}; r=${a#*=}; debs=\"$debs ${r%%=*}\"; rpms=\"$rpms ${r#*=}\"",
      "  [ \"$t\" = netperf ] || [ \"$t\" = netserver ] && netperf=yes; done",
      "if command -v apt-get >/dev/null 2>&1; then",
      "  export DEBIAN_FRONTEND=noninteractive",
      "  if [ $netperf = yes ] && [ -z \"$(apt-cache policy netperf 2>/dev/null | grep 'Candidate: [0-9]')\" ]; then",
      "    f=/etc/apt/sources.list.d/debian.sources",
      "    [ -f $f ] && $SUDO sed -i '/^Components:/{/ non-free\\( \\|$\\)/!s/$/ non-free/}' $f",
      "    f=/etc/apt/sources.list",
      "    [ -f $f ] && $SUDO sed -i '/^deb .*debian/{/ non-free\\( \\|$\\)/!s/$/ non-free/}' $f",
      "  fi",
      "  $SUDO apt-get update -q && $SUDO apt-get install -y -q $debs",
      "elif command -v dnf >/dev/null 2>&1; then $SUDO dnf install -y $rpms",
      "elif command -v yum >/dev/null 2>&1; then $SUDO yum install -y $rpms",
      "else exit " + EXIT_NO_MANAGER + "; fi");

  private Packages() {}

  /** Debian package of a program, null when unknown. */
  static String debian(String tool) {
    return DEBIAN.get(tool);
  }

  static String redHat(String tool) {
    return RED_HAT.getOrDefault(tool, DEBIAN.get(tool));
  }
}
