/**
 * What every tool's parser shares: {@link io.netpulse.tools.parse.OutputParser} and
 * {@link io.netpulse.tools.parse.LineParser} (never throw: samples plus {@link io.netpulse.tools.parse.ParseError}s
 * naming line and field), the registry by format name ({@link io.netpulse.tools.Parsers}) and text helpers.
 */
package io.netpulse.tools.parse;
