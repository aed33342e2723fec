/**
 * Text helpers for what an alert says: its words come from reports, which anyone on the internet
 * can send (docs/hostile-input.md), and go into mail headers, HTML and chat messages
 * (docs/alerts.md, "What an alert says").
 */

// C0 and C1 controls (CR and LF among them), DEL, the Unicode line and paragraph separators, and the
// bidirectional overrides and isolates, which can make a subject read differently from what it says.
const UNSAFE_IN_A_LINE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]+/g;

/**
 * `text` on one line: every control character, line break and bidirectional override becomes a
 * space, runs of spaces one, and the result at most `max` characters (code points), ending in
 * `…` when cut. Safe in a mail header: no CR or LF is left.
 *
 * @example
 * oneLine('TypeError: x\r\nBcc: victim@example', 40); // 'TypeError: x Bcc: victim@example'
 */
export const oneLine = (text: string, max: number): string => {
  const flat = text.replace(UNSAFE_IN_A_LINE, ' ').replace(/ {2,}/g, ' ').trim();
  return truncate(flat, max);
};

/**
 * `text` cut to at most `max` code points (a surrogate pair is never split), ending in `…` when cut.
 *
 * @example
 * truncate('abcdef', 4); // 'abc…'
 */
export const truncate = (text: string, max: number): string => {
  if (text.length <= max) return text;
  const points = [...text];
  return points.length <= max ? text : points.slice(0, Math.max(0, max - 1)).join('') + '…';
};

/**
 * `text` escaped for HTML text and quoted attribute values.
 *
 * @example
 * escapeHtml('<img src=x onerror="alert(1)">'); // '&lt;img src=x onerror=&quot;alert(1)&quot;&gt;'
 */
export const escapeHtml = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

/**
 * `url` when it is an absolute http or https URL, else undefined: what may become a link. Only the
 * collector's own dashboard links are links in an alert; a report's page URL is shown as text.
 *
 * @example
 * httpUrl('javascript:alert(1)'); // undefined
 */
export const httpUrl = (url: string): string | undefined => {
  try {
    const parsed = new URL(url);
    return parsed.protocol == 'http:' || parsed.protocol == 'https:' ? parsed.href : undefined;
  } catch {
    return undefined;
  }
};
