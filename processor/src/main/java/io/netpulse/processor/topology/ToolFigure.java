package io.netpulse.processor.topology;

import io.netpulse.common.event.Sample;

/**
 * One figure a finished tool instance printed, with the repetition and instance it belongs to: what
 * "sum over instances" and "as printed" run values are made of.
 */
public record ToolFigure(String run, String test, int repetition, String instance, Sample sample) {}
