/**
 * sysstat's {@code sar -n DEV 1}: the per-second interface counters that the bandwidth and PPS tests read on the SUT.
 * Command: {@link io.netpulse.tools.Sampler#SAR_DEV} (run with {@code LC_ALL=C S_TIME_FORMAT=ISO TZ=UTC}, so that
 * decimals, times and the date are one format the parser knows without guessing the host's zone). Parser:
 * {@link io.netpulse.tools.sar.SarDevParser} (format {@code sar-dev}), the pipeline's hot path. Fixtures: sysstat 12.6
 * in the C locale, ISO and 12-hour, captured in namespaces and on lo (see the fixtures' README under
 * src/test/resources/io/netpulse/tools).
 */
package io.netpulse.tools.sar;
