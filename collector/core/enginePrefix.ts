import type { ErrorReport } from './records';

/**
 * What engines put before the description of an uncaught value in an `ErrorEvent`'s message, which
 * the HTML standard leaves to the user agent (HTML, "Runtime script errors": "a user-agent-defined
 * string describing the error"): Chromium "Uncaught " (before an Error's "Name: message" too),
 * Firefox "uncaught exception: " (before a value that is not an Error; an Error's message has no
 * prefix). WebKit describes the value alone ("stringError", "TypeError: x is undefined"), which is
 * what both others become without theirs. Case-sensitive: "uncaught " alone is a sentence's word.
 */
const ENGINE_PREFIX = /^(?:Uncaught |uncaught exception: )/;

/**
 * A message without the engine's prefix for an uncaught value, so that one throw reads, and is
 * fingerprinted, the same in every browser (docs/grouping.md, "The engine's prefix"). Only one
 * prefix goes: the rest is the value's own description.
 *
 * @example
 * withoutEnginePrefix('Uncaught stringError') // 'stringError' (Chromium)
 * withoutEnginePrefix('uncaught exception: stringError') // 'stringError' (Firefox)
 * withoutEnginePrefix('Uncaught TypeError: x is undefined') // 'TypeError: x is undefined', as Firefox words it
 */
export const withoutEnginePrefix = (message: string) => message.replace(ENGINE_PREFIX, '');

/**
 * The report's message as ingest keeps it: without the engine's prefix for what the browser
 * captured. A `manual` report's message is the application's own words and is kept as written.
 *
 * @example
 * engineNeutralMessage({ error_type: 'javascript_error', error_message: 'Uncaught null' }) // 'null'
 * engineNeutralMessage({ error_type: 'manual', error_message: 'Uncaught by the retry loop' }) // unchanged
 */
export const engineNeutralMessage = ({ error_type, error_message }: Pick<ErrorReport, 'error_type' | 'error_message'>) =>
  error_type == 'manual' ? error_message : withoutEnginePrefix(error_message);
