package io.netpulse.cli.command;

import io.netpulse.cli.options.UserErrors;
import java.io.PrintWriter;
import java.io.StringWriter;
import picocli.CommandLine;

/**
 * {@code netpulse collector ARGS} in this JVM, its errors handled as Main handles them (one line, exit 2 for a usage
 * error): the collector tests judge what a user sees, its exit code and stderr.
 */
record CollectorRun(int exit, String err) {

  static CollectorRun collector(String... args) {
    StringWriter err = new StringWriter();
    CommandLine cli = new CommandLine(new CollectorCommand()).setExecutionExceptionHandler(UserErrors::handle);
    cli.setErr(new PrintWriter(err, true));
    int exit = cli.execute(args);
    return new CollectorRun(exit, err.toString());
  }
}
