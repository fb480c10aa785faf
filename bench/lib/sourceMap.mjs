// The original source of a position in a built script, from its source map (version 3): what the CPU timeline
// (bench/cpu-timeline.mjs) needs to name the code a profile sample ran. A small decoder of the `mappings` VLQs, so
// that the bench depends on no source-map package of its own.

import { readFileSync } from 'node:fs';

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** @type {Record<string, number>} */
const DIGIT = Object.fromEntries([...BASE64].map((char, i) => [char, i]));

/**
 * One segment of a generated line: its generated column and the index of its source (-1: none).
 *
 * @typedef {{ column: number, source: number }} Segment
 */

/** @param {string} text one segment's VLQ text @returns {number[]} */
function decodeVlq(text) {
  /** @type {number[]} */
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of text) {
    const digit = DIGIT[char];
    if (digit === undefined) throw new Error(`source map: not a base64 digit: ${char}`);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/**
 * A source map, read once: `sourceAt(line, column)` (0-based, as the DevTools protocol's call frames) names the
 * original source of the generated position (the last segment at or before it on its line), null for none.
 *
 * @param {string} file the .map file
 */
export function readSourceMap(file) {
  /** @type {{ sources: string[], mappings: string }} */
  const map = JSON.parse(readFileSync(file, 'utf8'));
  /** @type {Segment[][]} */
  const lines = [];
  let source = 0;
  for (const line of map.mappings.split(';')) {
    /** @type {Segment[]} */
    const segments = [];
    let column = 0;
    for (const text of line.split(',')) {
      if (!text) continue;
      const [dColumn = 0, dSource] = decodeVlq(text);
      column += dColumn;
      // fields 3–5 (line, column, name) are deltas this reader does not need; the source index is cumulative
      if (dSource === undefined) segments.push({ column, source: -1 });
      else {
        source += dSource;
        segments.push({ column, source });
      }
    }
    lines.push(segments);
  }
  return {
    /** @param {number} line @param {number} column @returns {string | null} */
    sourceAt(line, column) {
      const segments = lines[line] ?? [];
      let found = null;
      for (const segment of segments) {
        if (segment.column > column) break;
        found = segment;
      }
      return found && found.source >= 0 ? (map.sources[found.source] ?? null) : null;
    },
  };
}
