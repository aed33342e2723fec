import { takesSourceList } from './isKnownDirective';
import { isSourceExpression } from './parseSourceExpression';
import { isDirectiveName, type Policy } from './parsePolicy';

/** directive-value characters (CSP3 §2.3, #framework-directives): VCHAR without ";" (%x3B) and "," (%x2C). */
const VALUE_TOKEN = /^[\x21-\x2b\x2d-\x3a\x3c-\x7e]+$/;

/**
 * True when `token` may stand in `directive`'s value: a source expression for a source-list
 * directive, otherwise visible ASCII without ";" or ",". Nothing else is ever serialized.
 *
 * @example
 * isWellFormedToken('img-src', 'https://cdn.example'); // true
 * isWellFormedToken('img-src', 'a,b');                 // false
 * isWellFormedToken('report-to', 'sitebeacon');        // true
 */
export const isWellFormedToken = (directive: string, token: string) =>
  VALUE_TOKEN.test(token) && (!takesSourceList(directive) || isSourceExpression(token));

/**
 * What is wrong with a serialized policy, one sentence per fault; empty when it is well formed.
 * Stricter than the parser, which skips what it cannot use: a base policy is refused with a clear
 * 400 rather than silently changed (non-ASCII or ill-named directives, duplicates, ill-formed tokens).
 *
 * @example
 * policyProblems("img-src 'self' https://a.example,b"); // ['img-src: "https://a.example,b" is not a source expression']
 */
export const policyProblems = (serialized: string): string[] => {
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const part of serialized.split(';')) {
    const [first, ...tokens] = part.split(/[\t\n\f\r ]+/).filter(Boolean);
    if (first === undefined) continue;
    const name = first.toLowerCase();
    if (!/^[\x00-\x7f]*$/.test(part)) {
      problems.push(`${JSON.stringify(name)}: a directive must be ASCII (browsers ignore it otherwise)`);
      continue;
    }
    if (!isDirectiveName(name)) problems.push(`${JSON.stringify(name)} is not a directive name`);
    else if (seen.has(name)) problems.push(`${name} appears twice (browsers ignore all but the first)`);
    seen.add(name);
    for (const token of tokens) {
      if (!isWellFormedToken(name, token)) {
        problems.push(`${name}: ${JSON.stringify(token)} is not ${takesSourceList(name) ? 'a source expression' : 'a directive value'}`);
      }
    }
    if (takesSourceList(name) && tokens.length > 1 && tokens.some((token) => token.toLowerCase() == "'none'")) {
      problems.push(`${name}: 'none' must stand alone`);
    }
  }
  return problems;
};

/**
 * A copy of `policy` keeping only well-formed tokens, and `'none'` only where it stands alone
 * (browsers ignore it beside other sources). Base policies stored before validation existed are
 * read through this, so nothing ill-formed is ever written back out.
 *
 * @example
 * wellFormedPolicy(new Map([['img-src', ["'none'", 'https://a.example', 'x;y']]])); // Map { 'img-src' => ['https://a.example'] }
 */
export const wellFormedPolicy = (policy: Policy): Policy => {
  const copy: Policy = new Map();
  for (const [name, tokens] of policy) {
    if (!isDirectiveName(name)) continue;
    let kept = tokens.filter((token) => isWellFormedToken(name, token));
    if (takesSourceList(name) && kept.length > 1) kept = kept.filter((token) => token.toLowerCase() != "'none'");
    copy.set(name, kept);
  }
  return copy;
};
