import { isDirectiveName, type Policy } from './parsePolicy';
import { isWellFormedToken } from './wellFormedPolicy';

/**
 * Writes a policy once, as `name token token; name token`. It checks every name and token against
 * the grammar (CSP3 §2.3 directive-name and directive-value, §2.3.1 source-expression) and throws on anything else: a policy built from reports must
 * never carry a ";", ",", quote, whitespace or control character that came from one, and a bug
 * that tried would be a 500, not a broken header.
 *
 * @example
 * serializePolicy(new Map([['default-src', ["'self'"]], ['img-src', ["'self'", 'https://cdn.example']]]));
 * // "default-src 'self'; img-src 'self' https://cdn.example"
 */
export const serializePolicy = (policy: Policy): string => {
  const parts: string[] = [];
  for (const [name, tokens] of policy) {
    if (!isDirectiveName(name)) throw new TypeError(`not a directive name: ${JSON.stringify(name)}`);
    for (const token of tokens) {
      if (!isWellFormedToken(name, token)) throw new TypeError(`not a well-formed value of ${name}: ${JSON.stringify(token)}`);
    }
    parts.push([name, ...tokens].join(' '));
  }
  return parts.join('; ');
};
