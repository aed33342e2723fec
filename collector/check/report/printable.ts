/**
 * Text from the network made safe to print on one terminal line: control characters (escape
 * sequences could rewrite the screen), bidirectional overrides and runs of white space become
 * single spaces, and it is cut to `max` characters. Every answer the check prints is hostile input.
 *
 * @example
 * printable('<title>\u001b[2JAccess denied</title>', 40); // '<title> [2JAccess denied</title>'
 */
export const printable = (text: string, max = 300): string => {
  const flat = text
    .replace(/[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
};
