/**
 * A parsed policy: directive name (ASCII lowercase) -> its value tokens, in the policy's order.
 * Always a Map: names come from the internet, and `constructor` or `__proto__` must be keys like any other.
 */
export type Policy = Map<string, string[]>;

/** ASCII whitespace (https://infra.spec.whatwg.org/#ascii-whitespace). */
const ASCII_WHITESPACE = /[\t\n\f\r ]+/;
const ASCII = /^[\x00-\x7f]*$/;
/** directive-name = 1*( ALPHA / DIGIT / "-" ) (CSP3 §2.3 "Directives", #framework-directives); lowercase once parsed. */
const DIRECTIVE_NAME = /^[a-z0-9-]+$/;

/**
 * True when `name` matches the directive-name grammar of CSP3 §2.3 (after ASCII lowercasing).
 *
 * @example
 * isDirectiveName('img-src'); // true
 * isDirectiveName('img_src'); // false
 */
export const isDirectiveName = (name: string) => DIRECTIVE_NAME.test(name);

/**
 * CSP3 §2.2.1 "Parse a serialized CSP" (https://w3c.github.io/webappsec-csp/#parse-serialized-policy):
 * strictly split on ";", strip ASCII whitespace, skip empty and non-ASCII tokens, ASCII-lowercase
 * the directive name, ignore a directive after its first occurrence, split the value on ASCII
 * whitespace. Names that do not match the directive-name grammar are dropped too (no browser
 * would apply them). Values are kept as tokens; `wellFormedPolicy` judges them.
 *
 * @example
 * parsePolicy("default-src 'self'; IMG-SRC https://cdn.example; img-src *");
 * // Map { 'default-src' => ["'self'"], 'img-src' => ['https://cdn.example'] }
 */
export const parsePolicy = (serialized: string): Policy => {
  const policy: Policy = new Map();
  for (const part of serialized.split(';')) {
    const token = part.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '');
    if (!token || !ASCII.test(token)) continue;
    const [rawName, ...value] = token.split(ASCII_WHITESPACE);
    const name = rawName!.toLowerCase();
    if (!isDirectiveName(name) || policy.has(name)) continue;
    policy.set(name, value);
  }
  return policy;
};

/**
 * CSP3 §2.2.2 "Parse a serialized CSP list": a header value holds several policies separated by
 * commas (and several header lines are joined with ", "). Empty policies are left out. A `<meta>`
 * policy is one policy: parse it with `parsePolicy`.
 *
 * @example
 * parsePolicyList("default-src 'self', script-src 'none'").length; // 2
 */
export const parsePolicyList = (list: string): Policy[] =>
  list
    .split(',')
    .map(parsePolicy)
    .filter((policy) => policy.size > 0);
