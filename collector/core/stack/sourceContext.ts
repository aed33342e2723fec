/** Lines of context shown before and after a frame's line. */
export const CONTEXT_LINES = 3;
/** A context line longer than this is cut (a minified or generated source's line can be megabytes). */
export const MAX_CONTEXT_LINE = 200;

/** The source code around a frame's original line, each line inert text. */
export interface SourceContext {
  pre: string[];
  line: string;
  post: string[];
}

// C0 controls but the tab, DEL and C1 controls, the Unicode line and paragraph separators, and the
// bidirectional overrides and isolates, which can make code read differently from what it does:
// a map's sourcesContent is anyone's text (docs/source-maps.md, "Source context").
const UNSAFE = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

/**
 * One line of a source as text that shows what it is and does nothing: unsafe characters become
 * U+FFFD, and the line is cut to `max` UTF-16 code units, never inside a surrogate pair. HTML stays
 * as written; whoever displays it escapes it as any other text.
 *
 * @example
 * inertLine('a\u202eb', 200); // 'a\ufffdb'
 */
export const inertLine = (text: string, max = MAX_CONTEXT_LINE): string => {
  let cut = text.length > max ? text.slice(0, max) : text;
  const last = cut.charCodeAt(cut.length - 1);
  if (cut.length < text.length && last >= 0xd800 && last <= 0xdbff) cut = cut.slice(0, -1);
  return cut.replace(UNSAFE, '\ufffd');
};

/** Line `number`'s text, inert, without its line end, from `start` to `end` (exclusive); reads at most MAX_CONTEXT_LINE + 1 characters. */
const lineText = (content: string, start: number, end: number) => {
  const text = content.slice(start, Math.min(end, start + MAX_CONTEXT_LINE + 1));
  return inertLine(text.endsWith('\r') ? text.slice(0, -1) : text);
};

/**
 * The context of each of `lines` (1-based) in `content`: the line and CONTEXT_LINES lines before and
 * after, each inert; `null` for a line the source does not have. One pass of indexOf from the top
 * to the last line wanted, however many lines are asked: many frames in one large source cost one
 * scan, and only the lines shown are kept.
 *
 * @example
 * sourceContexts('a\nb\nc\nd', [2]).get(2); // { pre: ['a'], line: 'b', post: ['c', 'd'] }
 */
export const sourceContexts = (content: string, lines: readonly number[]): Map<number, SourceContext | null> => {
  const asked = lines.filter((line) => Number.isInteger(line) && line >= 1);
  const wanted = new Set(asked.flatMap((line) => Array.from({ length: 2 * CONTEXT_LINES + 1 }, (_, index) => line - CONTEXT_LINES + index)));
  const last = Math.max(0, ...wanted);
  const texts = new Map<number, string>();
  let start = 0;
  for (let number = 1; number <= last; number++) {
    const end = content.indexOf('\n', start);
    if (wanted.has(number)) texts.set(number, lineText(content, start, end < 0 ? content.length : end));
    if (end < 0) break;
    start = end + 1;
  }
  const around = (from: number, to: number) => {
    const found: string[] = [];
    for (let number = from; number <= to; number++) if (texts.has(number)) found.push(texts.get(number)!);
    return found;
  };
  return new Map(
    lines.map((line) => {
      const text = texts.get(line);
      if (text === undefined || !asked.includes(line)) return [line, null];
      return [line, { pre: around(line - CONTEXT_LINES, line - 1), line: text, post: around(line + 1, line + CONTEXT_LINES) }];
    }),
  );
};

/**
 * The context of one line: sourceContexts for a single line.
 *
 * @example
 * sourceContext('a\nb\nc\nd', 2); // { pre: ['a'], line: 'b', post: ['c', 'd'] }
 */
export const sourceContext = (content: string, line: number): SourceContext | null => sourceContexts(content, [line]).get(line) ?? null;
