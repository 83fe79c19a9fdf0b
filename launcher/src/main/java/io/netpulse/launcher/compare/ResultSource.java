package io.netpulse.launcher.compare;

import io.netpulse.common.compare.ExecutionResults;

/**
 * Where one side of a comparison comes from: a file (an archive, {@code run --format json}) or the results topic (a
 * plan's latest execution, an execution id, a label selector). Each reads once and fails with a
 * {@link io.netpulse.launcher.UserError} naming what it read and what is wrong.
 */
public interface ResultSource {

  ExecutionResults read();
}
