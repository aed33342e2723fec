import * as v from 'valibot';
import { openCompactMap, type CompactMap } from './compactMap';
import { compileSourceMap, type CheckedMap } from './compactMapBuild';

/** A source map checked and in its compact form, ready for lookups (compactMap.ts). */
export type ParsedSourceMap = CompactMap;

/**
 * The largest map text parsed, in UTF-16 code units: 32 Mi, room for a 20 MB bundle's map. What a
 * check holds is the text and its parsed JSON, about twice its size, for the check's time only:
 * past this a map is invalid here (docs/source-maps.md, "Why a frame is not mapped").
 */
export const MAX_MAP_CHARS = 32 * 1024 * 1024;

/**
 * The most mappings (segments) and generated lines a map may hold, counted before it is compiled.
 * Compiling scans each mapping once and writes a checkpoint (32 bytes) each line's first and every
 * 64th mapping (compactMapBuild.ts), so that `A,A,…` within the size limit (16 M mappings) and
 * `;A;A…` (millions of one-mapping lines) are refused unread. A real 20 MB map holds about 2 M mappings.
 */
export const MAX_MAP_SEGMENTS = 4_000_000;
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
 * A source map's text with its fields' types, revision 3 and its mappings' alphabet and counts
 * checked (the segments are checked as they are compiled: compactMapBuild.ts), or 'map_invalid'.
 * Throws only a RangeError, the heap's refusal of an allocation (a thread with too little memory), never the map's.
 *
 * @example
 * const checked = checkSourceMap(text);
 * if (checked != 'map_invalid') compileSourceMap(checked, write);
 */
export const checkSourceMap = (text: string): CheckedMap | 'map_invalid' => {
  if (typeof text != 'string' || text.length > MAX_MAP_CHARS) return 'map_invalid';
  try {
    const checked = v.safeParse(SourceMapSchema, JSON.parse(text));
    if (!checked.success || !isMappingsAlphabet(checked.output.mappings)) return 'map_invalid';
    return checked.output;
  } catch (error) {
    // A RangeError is the heap's (an allocation refused), not the map's: its caller's to handle.
    if (error instanceof RangeError) throw error;
    return 'map_invalid';
  }
};

/**
 * A source map's text, checked (revision 3, the fields' types, the mappings' alphabet, every
 * segment in bounds) and compiled at once into its compact form, here held in memory (the map
 * thread writes it to a file instead: sourcemaps/mapFiles.ts), so that what can go wrong goes
 * wrong here and each lookup after is a binary search. `'map_invalid'` for anything else; throws only as checkSourceMap does.
 *
 * @example
 * const map = parseSourceMap(readFileSync('app.min.js.map', 'utf8'));
 * if (map != 'map_invalid') map.trace(1, 73);
 */
export const parseSourceMap = (text: string): ParsedSourceMap | 'map_invalid' => {
  const checked = checkSourceMap(text);
  if (checked == 'map_invalid') return checked;
  const chunks: Uint8Array[] = [];
  const size = compileSourceMap(checked, (chunk) => chunks.push(chunk.slice()));
  if (size == 'map_invalid') return size;
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) (bytes.set(chunk, at), (at += chunk.byteLength));
  return openCompactMap({ size, read: (offset, length) => bytes.subarray(offset, offset + length) });
};
