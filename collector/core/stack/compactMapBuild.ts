import { isIgnored, TraceMap } from '@jridgewell/trace-mapping';

/**
 * The compact form of a source map (docs/source-maps.md, "The compact form"): what a lookup needs,
 * as bytes read by range, so that a map costs no heap once it is written. Sections, in order:
 * checkpoints (CHECKPOINT_INTS int32 each: generated line, the segment's generated column, its
 * offset in the mappings, and the decoder's state before it: column, source, original line,
 * original column, name), the mappings' text as bytes, each source's content (UTF-8) and its line
 * starts (int32, one past the last), the sources' names and the names as string tables (int32
 * offsets, then UTF-8), the sources' table (SOURCE_INTS int32 each), and a trailer of TRAILER_INTS int32.
 */
export const CHECKPOINT_INTS = 8;
/** A checkpoint every this many segments of a line (and at each line's first): a lookup decodes at most this many. */
export const CHECKPOINT_EVERY = 64;
/** Per source: content offset, content bytes (-1: none), line starts' offset, line count, ignored (1). */
export const SOURCE_INTS = 5;
export const TRAILER_INTS = 12;
export const COMPACT_MAGIC = 0x53424d31;

/** The map's fields as parseSourceMap.ts checked them. */
export interface CheckedMap {
  mappings: string;
  sources: Array<string | null>;
  names: string[];
  sourcesContent?: Array<string | null> | null | undefined;
  sourceRoot?: string | null | undefined;
  file?: string | null | undefined;
  ignoreList?: number[] | undefined;
  x_google_ignoreList?: number[] | undefined;
}

/** Base64 digits' values, -1 for any other character. */
export const VLQ_DIGITS = (() => {
  const table = new Int8Array(128).fill(-1);
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'.split('').forEach((char, index) => (table[char.charCodeAt(0)] = index));
  return table;
})();

const encoder = new TextEncoder();
const bytesOf = (ints: Int32Array) => new Uint8Array(ints.buffer, ints.byteOffset, ints.byteLength);

/** A writer that counts the bytes it was given: `at` is the next section's offset. */
const counted = (write: (chunk: Uint8Array) => void) => {
  const out = {
    at: 0,
    put(chunk: Uint8Array) {
      if (chunk.byteLength) write(chunk);
      out.at += chunk.byteLength;
    },
  };
  return out;
};

/** Strings as a table: `count + 1` int32 offsets, then their UTF-8; answers the table's offset. */
const putStrings = (out: ReturnType<typeof counted>, strings: readonly string[]) => {
  const at = out.at;
  const encoded = strings.map((text) => encoder.encode(text));
  const offsets = new Int32Array(strings.length + 1);
  let offset = 0;
  encoded.forEach((bytes, index) => ((offsets[index] = offset), (offset += bytes.byteLength)));
  offsets[strings.length] = offset;
  out.put(bytesOf(offsets));
  for (const bytes of encoded) out.put(bytes);
  return at;
};

/**
 * Scans the mappings once, checking each segment as parseSourceMap.ts requires (1, 4 or 5 fields,
 * none negative, indexes within `sources` and `names`, no digit run past 32 bits), and writes a
 * checkpoint at each line's first segment and every CHECKPOINT_EVERY after. Answers whether every
 * line's columns ascend, or 'map_invalid'.
 */
const scanMappings = (mappings: string, sourceCount: number, nameCount: number, out: ReturnType<typeof counted>) => {
  const chunk = new Int32Array(CHECKPOINT_INTS * 2048);
  let filled = 0;
  let count = 0;
  // The decoder's state: generated column, source, original line, original column, name.
  let [column, source, originalLine, originalColumn, name] = [0, 0, 0, 0, 0];
  const fields = new Int32Array(5);
  let line = 0;
  let inLine = 0;
  let sorted = true;
  let position = 0;
  const length = mappings.length;
  while (position < length) {
    const code = mappings.charCodeAt(position);
    if (code == 59 || code == 44) {
      if (code == 59) (line++, (inLine = 0), (column = 0));
      position++;
      continue;
    }
    const start = position;
    let n = 0;
    while (position < length) {
      const next = mappings.charCodeAt(position);
      if (next == 44 || next == 59) break;
      let value = 0;
      let scale = 1;
      let digit: number;
      do {
        const char = mappings.charCodeAt(position++);
        digit = char < 128 ? VLQ_DIGITS[char]! : -1;
        if (digit < 0 || scale > 2 ** 30) return 'map_invalid' as const;
        value += (digit & 31) * scale;
        scale *= 32;
      } while (digit & 32);
      const magnitude = Math.floor(value / 2);
      if (n == 5 || magnitude > 0x7fffffff) return 'map_invalid' as const;
      fields[n++] = value % 2 ? -magnitude : magnitude;
    }
    if (n != 1 && n != 4 && n != 5) return 'map_invalid' as const;
    const at = column + fields[0]!;
    if (at < 0) return 'map_invalid' as const;
    if (inLine > 0 && at < column) sorted = false;
    if (inLine % CHECKPOINT_EVERY == 0) {
      chunk[filled] = line;
      chunk[filled + 1] = at;
      chunk[filled + 2] = start;
      chunk[filled + 3] = column;
      chunk[filled + 4] = source;
      chunk[filled + 5] = originalLine;
      chunk[filled + 6] = originalColumn;
      chunk[filled + 7] = name;
      filled += CHECKPOINT_INTS;
      count++;
      if (filled == chunk.length) (out.put(bytesOf(chunk)), (filled = 0));
    }
    column = at;
    inLine++;
    if (n == 1) continue;
    source += fields[1]!;
    originalLine += fields[2]!;
    originalColumn += fields[3]!;
    if (!(source >= 0 && source < sourceCount && originalLine >= 0 && originalColumn >= 0)) return 'map_invalid' as const;
    if (n == 5) {
      name += fields[4]!;
      if (!(name >= 0 && name < nameCount)) return 'map_invalid' as const;
    }
  }
  out.put(bytesOf(chunk.subarray(0, filled)));
  return { count, sorted, lines: line + 1 };
};

/** One source's content and its lines' starts (UTF-8 offsets, and one past the end), written; answers its table row. */
const putSource = (out: ReturnType<typeof counted>, content: string | null | undefined, ignored: boolean) => {
  if (typeof content != 'string') return [0, -1, 0, 0, ignored ? 1 : 0];
  const bytes = encoder.encode(content);
  const contentAt = out.at;
  out.put(bytes);
  let lines = 1;
  for (let index = 0; index < bytes.length; index++) if (bytes[index] == 10) lines++;
  const starts = new Int32Array(lines + 1);
  let line = 1;
  for (let index = 0; index < bytes.length; index++) if (bytes[index] == 10) starts[line++] = index + 1;
  starts[lines] = bytes.length + 1;
  const linesAt = out.at;
  out.put(bytesOf(starts));
  return [contentAt, bytes.length, linesAt, lines, ignored ? 1 : 0];
};

/**
 * Writes a checked map's compact form through `write`, in order, and answers its size, or
 * 'map_invalid' when a segment is unsound (what was written then is to be thrown away). The
 * sources' names are trace-mapping's (sourceRoot joined), their ignored flags its isIgnored's.
 *
 * @example
 * const chunks: Uint8Array[] = [];
 * compileSourceMap(checked, (chunk) => chunks.push(chunk.slice()));
 */
export const compileSourceMap = (map: CheckedMap, write: (chunk: Uint8Array) => void): number | 'map_invalid' => {
  const out = counted(write);
  const scanned = scanMappings(map.mappings, map.sources.length, map.names.length, out);
  if (scanned == 'map_invalid') return scanned;
  const mappingsAt = out.at;
  for (let from = 0; from < map.mappings.length; from += 1 << 20) {
    const part = map.mappings.slice(from, from + (1 << 20));
    out.put(encoder.encode(part));
  }
  const { sourcesContent, sourceRoot, mappings: _mappings, ...rest } = map;
  const names = new TraceMap({ ...rest, version: 3, mappings: '', sourceRoot: sourceRoot ?? undefined, file: rest.file ?? undefined });
  const table = new Int32Array(map.sources.length * SOURCE_INTS);
  map.sources.forEach((_, index) => {
    let ignored = false;
    try {
      ignored = isIgnored(names, names.resolvedSources[index] ?? '');
    } catch {
      // Not listed: not ignored.
    }
    table.set(putSource(out, sourcesContent?.[index], ignored), index * SOURCE_INTS);
  });
  const sourceNamesAt = putStrings(out, names.resolvedSources.map((source) => source ?? ''));
  const namesAt = putStrings(out, map.names);
  const tableAt = out.at;
  out.put(bytesOf(table));
  const trailer = Int32Array.from([
    COMPACT_MAGIC, 0, scanned.count, mappingsAt, map.mappings.length, map.sources.length, tableAt, sourceNamesAt, map.names.length, namesAt, scanned.sorted ? 1 : 0, scanned.lines,
  ]);
  out.put(bytesOf(trailer));
  return out.at;
};
