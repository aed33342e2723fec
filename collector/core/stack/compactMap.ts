import { CHECKPOINT_EVERY, CHECKPOINT_INTS, COMPACT_MAGIC, SOURCE_INTS, TRAILER_INTS, VLQ_DIGITS } from './compactMapBuild';
import { CONTEXT_LINES, inertLine, MAX_CONTEXT_LINE, type SourceContext } from './sourceContext';

/** Bytes by range: a file's (sourcemaps/mapFiles.ts) or a buffer's. */
export interface ByteReader {
  size: number;
  read(offset: number, length: number): Uint8Array;
}

/** A generated position's original one: line 1-based, column 0-based, as trace-mapping answers. */
export interface CompactPosition {
  source: number;
  line: number;
  column: number;
  name: number;
}

/** A segment's bytes at most: five fields of seven base64 digits, and its comma. */
const SEGMENT_BYTES = 36;
/** Checkpoints read at once by a lookup. */
const BLOCK = 64;
const decoder = new TextDecoder();

/**
 * A source map in its compact form (compactMapBuild.ts), read by range through `reader`: a
 * position is found by a binary search of the checkpoints and the decoding of at most
 * CHECKPOINT_EVERY segments; a frame's context lines are read alone. Nothing is kept but the trailer.
 *
 * @example
 * const map = openCompactMap({ size: bytes.length, read: (at, n) => bytes.subarray(at, at + n) });
 * map.trace(1, 73); // { source: 0, line: 3, column: 10, name: 2 }
 */
export const openCompactMap = (reader: ByteReader) => {
  const ints = (offset: number, count: number) => {
    const bytes = reader.read(offset, count * 4);
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return Array.from({ length: count }, (_, index) => view.getInt32(index * 4, true));
  };
  const [magic, , checkpoints, mappingsAt, mappingsLength, sourceCount, tableAt, sourceNamesAt, nameCount, namesAt, sorted] = ints(reader.size - TRAILER_INTS * 4, TRAILER_INTS);
  if (magic != COMPACT_MAGIC) throw new Error('not a compact source map');
  const checkpoint = (index: number) => ints(index * CHECKPOINT_INTS * 4, CHECKPOINT_INTS);
  /** String `index` of a table of `count` (its offsets, then its text). */
  const string = (tableOffset: number, count: number, index: number) => {
    const [from, to] = ints(tableOffset + index * 4, 2);
    return decoder.decode(reader.read(tableOffset + (count + 1) * 4 + from!, to! - from!));
  };

  // The first checkpoint of each block of BLOCK, kept (8 bytes a block: 4 KB for a 20 MB map), so
  // that a lookup reads one block of checkpoints, not one per step of its search.
  const blocks = Math.ceil(checkpoints! / BLOCK);
  const blockKeys = new Int32Array(blocks * 2);
  for (let first = 0; first < blocks; first += 32) {
    const count = Math.min(checkpoints! - first * BLOCK, 32 * BLOCK);
    const all = ints(first * BLOCK * CHECKPOINT_INTS * 4, count * CHECKPOINT_INTS);
    for (let block = 0; block * BLOCK < count; block++) blockKeys.set([all[block * BLOCK * CHECKPOINT_INTS]!, all[block * BLOCK * CHECKPOINT_INTS + 1]!], (first + block) * 2);
  }
  const before = (line: number, column: number, otherLine: number, otherColumn: number) => otherLine < line || (otherLine == line && otherColumn < column);
  /** The last checkpoint before (line, column), by (line, column); -1 when none. */
  const lastBefore = (line: number, column: number) => {
    let low = 0;
    let high = blocks - 1;
    while (low <= high) {
      const mid = (low + high) >> 1;
      if (before(line, column, blockKeys[mid * 2]!, blockKeys[mid * 2 + 1]!)) low = mid + 1;
      else high = mid - 1;
    }
    if (high < 0) return -1;
    const count = Math.min(BLOCK, checkpoints! - high * BLOCK);
    const block = ints(high * BLOCK * CHECKPOINT_INTS * 4, count * CHECKPOINT_INTS);
    let last = 0;
    while (last + 1 < count && before(line, column, block[(last + 1) * CHECKPOINT_INTS]!, block[(last + 1) * CHECKPOINT_INTS + 1]!)) last++;
    return high * BLOCK + last;
  };

  /** The segments of `line` from checkpoint `index` on, decoded, until `stop` says so or the line ends. */
  const decodeFrom = (index: number, stop: (column: number) => boolean, upTo: number) => {
    const [, , offset, ...start] = checkpoint(index);
    const state = start as number[];
    const bytes = reader.read(mappingsAt! + offset!, Math.min(upTo, mappingsLength! - offset!));
    const found: CompactPosition[] = [];
    const columns: number[] = [];
    let position = 0;
    while (position < bytes.length) {
      const code = bytes[position]!;
      if (code == 59) break;
      if (code == 44) {
        position++;
        continue;
      }
      const fields: number[] = [];
      while (position < bytes.length && bytes[position] != 44 && bytes[position] != 59) {
        let value = 0;
        let shift = 0;
        let digit: number;
        do {
          digit = VLQ_DIGITS[bytes[position++]!]!;
          value += (digit & 31) * 2 ** shift;
          shift += 5;
        } while (digit & 32);
        const magnitude = Math.floor(value / 2);
        fields.push(value % 2 ? -magnitude : magnitude);
      }
      state[0] = state[0]! + fields[0]!;
      if (stop(state[0]!)) break;
      if (fields.length > 1) for (let field = 1; field < fields.length; field++) state[field] = state[field]! + fields[field]!;
      columns.push(state[0]!);
      found.push({ source: fields.length == 1 ? -1 : state[1]!, line: state[2]! + 1, column: state[3]!, name: fields.length == 5 ? state[4]! : -1 });
    }
    return { found, columns };
  };

  /** trace-mapping's choice among a line's segments sorted by column: the first at the column, else the last before it. */
  const choose = (columns: number[], found: CompactPosition[], column: number) => {
    let chosen = -1;
    for (let index = 0; index < columns.length; index++) {
      if (columns[index]! > column) break;
      if (columns[index] == column) return found[index]!;
      chosen = index;
    }
    return chosen < 0 ? null : found[chosen]!;
  };

  const firstOfLine = (line: number) => {
    const index = lastBefore(line, -1) + 1;
    return index < checkpoints! && ints(index * CHECKPOINT_INTS * 4, 1)[0] == line ? index : -1;
  };

  return {
    /** The compact form's size in bytes: what a cache of maps counts (createMapCache.ts). */
    bytes: reader.size,
    /** The original position of a generated one (line 1-based, column 0-based), or null where the map has none (a segment of one field included). */
    trace(line: number, column: number): CompactPosition | null {
      const generated = line - 1;
      if (!(generated >= 0) || !(column >= 0)) return null;
      if (!sorted) {
        // A line whose columns do not ascend is read whole and sorted, as trace-mapping sorts it.
        const first = firstOfLine(generated);
        if (first < 0) return null;
        const next = lastBefore(generated + 1, -1) + 1;
        const end = next < checkpoints! ? ints(next * CHECKPOINT_INTS * 4 + 8, 1)[0]! : mappingsLength!;
        const { found, columns } = decodeFrom(first, () => false, end - ints(first * CHECKPOINT_INTS * 4 + 8, 1)[0]!);
        const order = columns.map((_, index) => index).sort((a, b) => columns[a]! - columns[b]!);
        const position = choose(order.map((index) => columns[index]!), order.map((index) => found[index]!), column);
        return position && position.source >= 0 ? position : null;
      }
      let index = lastBefore(generated, column);
      if (index < 0 || ints(index * CHECKPOINT_INTS * 4, 1)[0] != generated) {
        index++;
        if (index >= checkpoints! || ints(index * CHECKPOINT_INTS * 4, 1)[0] != generated) return null;
      }
      const { found, columns } = decodeFrom(index, (at) => at > column, (CHECKPOINT_EVERY + 1) * SEGMENT_BYTES);
      const position = choose(columns, found, column);
      return position && position.source >= 0 ? position : null;
    },
    sources: sourceCount!,
    /** Source `index`'s name as trace-mapping resolves it (sourceRoot joined). */
    sourceName: (index: number) => string(sourceNamesAt!, sourceCount!, index),
    /** Name `index` of the map's `names`. */
    name: (index: number) => (index >= 0 && index < nameCount! ? string(namesAt!, nameCount!, index) : null),
    /** Whether the map's ignoreList names source `index`. */
    ignored: (index: number) => ints(tableAt! + index * SOURCE_INTS * 4 + 16, 1)[0] == 1,
    /**
     * The context of each of `lines` (1-based) of source `index`: the line and CONTEXT_LINES around,
     * inert (sourceContext.ts), each line's first bytes alone read; null when the map has no content for it.
     */
    contexts(index: number, lines: readonly number[]): Map<number, SourceContext | null> | null {
      const [contentAt, contentLength, linesAt, lineCount] = ints(tableAt! + index * SOURCE_INTS * 4, 4);
      if (contentLength! < 0) return null;
      // The lines around all the frames' lines, their starts read at once, and their text at once when near.
      const wanted = [...new Set(lines.flatMap((line) => Array.from({ length: 2 * CONTEXT_LINES + 1 }, (_, at) => line - CONTEXT_LINES + at)))]
        .filter((number) => Number.isInteger(number) && number >= 1 && number <= lineCount!)
        .sort((a, b) => a - b);
      const texts = new Map<number, string>();
      for (let from = 0; from < wanted.length; ) {
        let to = from;
        while (to + 1 < wanted.length && wanted[to + 1]! - wanted[from]! < 16) to++;
        const starts = ints(linesAt! + (wanted[from]! - 1) * 4, wanted[to]! - wanted[from]! + 2);
        const span = starts[starts.length - 1]! - starts[0]!;
        const near = span <= 16 * 1024 ? reader.read(contentAt! + starts[0]!, Math.max(0, Math.min(span, contentLength! - starts[0]!))) : null;
        for (let at = from; at <= to; at++) {
          const index = wanted[at]! - wanted[from]!;
          const [start, end] = [starts[index]!, starts[index + 1]! - 1];
          // 4 bytes a character at most: the first MAX_CONTEXT_LINE + 1 characters, a CR line end off, then cut by inertLine.
          const length = Math.min(end - start, 4 * MAX_CONTEXT_LINE + 4);
          const bytes = near ? near.subarray(start - starts[0]!, start - starts[0]! + length) : reader.read(contentAt! + start, length);
          const raw = decoder.decode(bytes).slice(0, MAX_CONTEXT_LINE + 1);
          texts.set(wanted[at]!, inertLine(raw.endsWith('\r') ? raw.slice(0, -1) : raw));
        }
        from = to + 1;
      }
      const text = (number: number) => texts.get(number);
      return new Map(
        lines.map((line) => {
          const own = text(line);
          if (own === undefined) return [line, null];
          const around = (from: number, to: number) => {
            const found: string[] = [];
            for (let number = from; number <= to; number++) {
              const one = text(number);
              if (one !== undefined) found.push(one);
            }
            return found;
          };
          return [line, { pre: around(line - CONTEXT_LINES, line - 1), line: own, post: around(line + 1, line + CONTEXT_LINES) }];
        }),
      );
    },
  };
};

export type CompactMap = ReturnType<typeof openCompactMap>;
