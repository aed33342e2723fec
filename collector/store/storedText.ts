const UNSTORABLE = /[\0\uD800-\uDFFF]/;
const NUL_OR_LONE_SURROGATE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text as every store keeps it: well-formed Unicode without NUL. PostgreSQL's `text` cannot hold
 * NUL and its `jsonb` refuses `\u0000` and lone surrogates; UTF-8 (SQLite's text) cannot hold a
 * lone surrogate either. Both stores replace each with U+FFFD, so a hostile report is stored, the
 * same on both, instead of failing its whole group commit.
 *
 * @example
 * storedText('a\0b\uD800') // 'a\uFFFDb\uFFFD'
 */
export const storedText = (text: string) => (UNSTORABLE.test(text) ? text.replace(NUL_OR_LONE_SURROGATE, '\uFFFD') : text);

/** What JSON.stringify writes for NUL or a lone surrogate (or, rarely, a backslash before such text). */
const ESCAPED_UNSTORABLE = /\\u(?:0000|d[89a-f])/i;

/**
 * A JSON column's text: every string value as storedText() keeps it (keys are escaped by JSON and
 * kept as sent). The replacer runs only when the plain text shows an escape that needs it.
 *
 * @example
 * storedJson({ note: 'a\0' }) // '{"note":"a\uFFFD"}'
 */
export const storedJson = (value: unknown) => {
  const text = JSON.stringify(value);
  return ESCAPED_UNSTORABLE.test(text)
    ? JSON.stringify(value, (_key, field: unknown) => (typeof field == 'string' ? storedText(field) : field))
    : text;
};
