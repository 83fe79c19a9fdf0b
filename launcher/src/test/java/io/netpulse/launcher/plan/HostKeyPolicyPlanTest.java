package io.netpulse.launcher.plan;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** Plans spell the host-key policy as inventories do; the old accept_new_host_keys still works, with a warning. */
@Tag("unit")
class HostKeyPolicyPlanTest {

  private final List<String> warnings = new ArrayList<>();

  private Plan load(String host) throws PlanException {
    return PlanLoader.parse("plan.yaml", Path.of("/plans"), """
        name: t
        hosts:
          sut: { address: 198.18.0.2 }
          peer: { address: 198.18.0.1, %s }
        tests: [ { type: latency } ]
        """.formatted(host), w -> warnings.add(w.describe()));
  }

  @Test
  void hostKeyPolicyAcceptNewAndStrict() throws Exception {
    assertThat(load("host_key_policy: accept-new").host("peer").acceptNewHostKeys()).isTrue();
    assertThat(load("host_key_policy: strict").host("peer").acceptNewHostKeys()).isFalse();
    assertThat(load("user: root").host("peer").acceptNewHostKeys()).as("default").isFalse();
    assertThat(warnings).isEmpty();
  }

  @Test
  void theOldSpellingStillWorksAndWarnsOnceWithFileAndLine() throws Exception {
    assertThat(load("accept_new_host_keys: true").host("peer").acceptNewHostKeys()).isTrue();
    assertThat(warnings).containsExactly("plan.yaml:4:54: warning: host 'peer' accept_new_host_keys is deprecated "
        + "and will be removed in the next release; write host_key_policy: accept-new (as inventories do)");
    warnings.clear();
    assertThat(load("accept_new_host_keys: false").host("peer").acceptNewHostKeys()).isFalse();
    assertThat(warnings).singleElement().asString().contains("write host_key_policy: strict");
  }

  @Test
  void aWrongPolicyOrBothSpellingsAreErrors() {
    assertThatThrownBy(() -> load("host_key_policy: accept_new")).isInstanceOf(PlanException.class)
        .satisfies(e -> assertThat(((PlanException) e).errors()).extracting(PlanError::describe).containsExactly(
            "plan.yaml:4:49: host 'peer' host_key_policy is text ('accept_new'), did you mean 'accept-new'? expected "
                + "one of: strict, accept-new"));
    assertThatThrownBy(() -> load("host_key_policy: strict, accept_new_host_keys: true"))
        .isInstanceOf(PlanException.class)
        .satisfies(e -> assertThat(((PlanException) e).errors()).extracting(PlanError::describe).singleElement()
            .asString().contains("has both host_key_policy and accept_new_host_keys"));
  }
}
