package io.netpulse.launcher.compare;

import io.netpulse.common.compare.ExecutionIndex;
import io.netpulse.common.compare.ExecutionLookupException;
import io.netpulse.common.compare.ExecutionResults;
import io.netpulse.common.event.ResultEvent;
import io.netpulse.launcher.UserError;
import io.netpulse.launcher.report.TopicSnapshot;
import java.util.function.Supplier;

/**
 * Results from the results topic, for an execution id, a plan's name (its latest execution) or a label selector
 * ({@code instance_type=c7.large[,region=x]}: the latest execution whose labels hold every pair): the topic as it is
 * now, read into an {@link ExecutionIndex}, which resolves what the user gave as the dashboard's compare view does.
 *
 * @param snapshot  the topic reader (opened on first use, shared by both sides)
 * @param topic     the results topic's name
 * @param selector  what the user gave
 */
public record KafkaResults(Supplier<TopicSnapshot> snapshot, String topic, String selector)
    implements ResultSource {

  @Override
  public ExecutionResults read() {
    ExecutionIndex index = new ExecutionIndex(topic);
    snapshot.get().read(topic, ResultEvent.class, index::add);
    try {
      return index.resolve(selector);
    } catch (ExecutionLookupException e) {
      if (e.kind() == ExecutionLookupException.Kind.UNKNOWN) {
        throw new UserError(e.getMessage() + ", nor a file (check --bootstrap-servers and --topic-prefix)");
      }
      throw new UserError(e.getMessage());
    }
  }
}
