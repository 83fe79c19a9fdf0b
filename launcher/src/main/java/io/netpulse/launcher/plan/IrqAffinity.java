package io.netpulse.launcher.plan;

/**
 * Binds the IRQs whose /proc/interrupts line contains {@code match} (e.g. {@code virtio2-input}) to
 * CPUs {@code firstCpu}, {@code firstCpu + cpuStep}, … (seed 001: cpu 0, step 2); undone after the run.
 */
public record IrqAffinity(String match, int firstCpu, int cpuStep) {}
