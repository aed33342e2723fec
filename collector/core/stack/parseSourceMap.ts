import { decodedMappings, TraceMap } from '@jridgewell/trace-mapping';
import * as v from 'valibot';

/** A source map checked and decoded once, ready for lookups (trace-mapping's TraceMap). */
export type ParsedSourceMap = TraceMap;

/**
 * The largest map text parsed, in UTF-16 code units. Its decoded mappings take several times its
 * size in memory, and the map cache counts text (createMapCache.ts): past this a map is invalid
 * here (docs/source-maps.md, "Why a frame is not mapped").
 */
export const MAX_MAP_CHARS = 16 * 1024 * 1024;

/**
 * The most mappings (segments) and generated lines a map may decode to. Decoded, a mapping takes
 * about 95 bytes and a line about 40 on the heap, and decoding takes about 1.8 s per million
 * mappings: within 16 Mi characters, `A,A,A,…` would decode to 8 M mappings (565 MB, 14 s) and
 * `;;;…` to 16 M lines (680 MB, 28 s). Real maps at the size limit hold about 2 M mappings.
 */
export const MAX_MAP_SEGMENTS = 2_000_000;
export const MAX_MAP_LINES = 1_000_000;

/** Source map revision 3 as trace-mapping reads it; an index map (`sections`) is not accepted. */
const SourceMapSchema = v.object({
  version: v.literal(3),
  mappings: v.string(),
  sources: v.array(v.nullable(v.string())),
  names: v.optional(v.array(v.string()), []),
  sourcesContent: v.optional(v.nullable(v.array(v.nullable(v.string())))),
  sourceRoot: v.optional(v.nullable(v.string())),
  file: v.optional(v.nullable(v.string())),
  ignoreList: v.optional(v.array(v.number())),
  x_google_ignoreList: v.optional(v.array(v.number())),
});

/**
 * Base64 digits, `,` and `;` (anything else is no VLQ, which the decoder would read as zeros), and
 * at most MAX_MAP_SEGMENTS mappings on at most MAX_MAP_LINES lines: counted before decoding.
 */
const isMappingsAlphabet = (mappings: string) => {
  let segments = 0;
  let lines = 1;
  let inSegment = false;
  for (let index = 0; index < mappings.length; index++) {
    const code = mappings.charCodeAt(index);
    if (code == 44 || code == 59) {
      if (code == 59) lines++;
      inSegment = false;
      continue;
    }
    const ok = (code >= 65 && code <= 90) || (code >= 97 && code <= 122) || (code >= 48 && code <= 57) || code == 43 || code == 47;
    if (!ok) return false;
    if (!inSegment) segments++;
    inSegment = true;
  }
  return segments <= MAX_MAP_SEGMENTS && lines <= MAX_MAP_LINES;
};

/**
 * Every decoded segment is 1, 4 or 5 numbers, none negative, its source and name indexes inside
 * `sources` and `names`: a VLQ that decodes to nonsense (an overflowing digit run, a delta below
 * zero) is caught here, once, instead of pointing a frame at line -11.
 */
const segmentsAreSound = (map: TraceMap, sourceCount: number, nameCount: number) => {
  for (const line of decodedMappings(map)) {
    for (const segment of line) {
      if (segment.length != 1 && segment.length != 4 && segment.length != 5) return false;
      if (!(segment[0] >= 0)) return false;
      if (segment.length == 1) continue;
      const [, source, originalLine, originalColumn] = segment as [number, number, number, number];
      if (!(source >= 0 && source < sourceCount && originalLine >= 0 && originalColumn >= 0)) return false;
      if (segment.length == 5 && !(segment[4]! >= 0 && segment[4]! < nameCount)) return false;
    }
  }
  return true;
};

/**
 * A source map's text, checked (revision 3, the fields' types, the mappings' alphabet, every
 * decoded segment in bounds) and decoded at once, so that what can go wrong goes wrong here and
 * each lookup after is a binary search. `'map_invalid'` for anything else; never throws.
 *
 * @example
 * const map = parseSourceMap(readFileSync('app.min.js.map', 'utf8'));
 * if (map != 'map_invalid') originalPositionFor(map, { line: 1, column: 73 });
 */
export const parseSourceMap = (text: string): ParsedSourceMap | 'map_invalid' => {
  if (typeof text != 'string' || text.length > MAX_MAP_CHARS) return 'map_invalid';
  try {
    const checked = v.safeParse(SourceMapSchema, JSON.parse(text));
    if (!checked.success || !isMappingsAlphabet(checked.output.mappings)) return 'map_invalid';
    const { sourcesContent, sourceRoot, ...rest } = checked.output;
    const map = new TraceMap({ ...rest, sourcesContent: sourcesContent ?? undefined, sourceRoot: sourceRoot ?? undefined });
    return segmentsAreSound(map, checked.output.sources.length, checked.output.names.length) ? map : 'map_invalid';
  } catch {
    return 'map_invalid';
  }
};
