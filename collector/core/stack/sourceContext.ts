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
