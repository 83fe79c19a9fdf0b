package io.netpulse.launcher.plan;

/**
 * Opt-in host preparation for the run only (restored afterwards, nothing written under /etc).
 * Null fields are left as they are: {@code nofile} is the RLIMIT_NOFILE of the processes netpulse
 * starts, {@code nrOpen} and {@code fileMax} the sysctls {@code fs.nr_open} and {@code fs.file-max}.
 */
public record PrepareSpec(Long nofile, Long nrOpen, Long fileMax, IrqAffinity irqAffinity) {

  public static final PrepareSpec NONE = new PrepareSpec(null, null, null, null);

  public boolean isEmpty() {
    return nofile == null && nrOpen == null && fileMax == null && irqAffinity == null;
  }
}
