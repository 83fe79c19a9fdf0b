package io.netpulse.launcher.plan;

import java.util.List;
import java.util.stream.Collectors;

/** A plan that cannot run; carries every error found, not just the first. */
public class PlanException extends Exception {

  private final List<PlanError> errors;

  public PlanException(List<PlanError> errors) {
    super(errors.stream().map(PlanError::describe).collect(Collectors.joining("\n")));
    this.errors = List.copyOf(errors);
  }

  public List<PlanError> errors() {
    return errors;
  }
}
