package io.netpulse.cli.command;

import io.netpulse.holder.HolderMain;
import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the build's version, as the holder module's filtered {@code version.properties} gives it. */
public final class VersionProvider implements IVersionProvider {

  @Override
  public String[] getVersion() {
    return new String[] {"netpulse " + HolderMain.version()};
  }
}
