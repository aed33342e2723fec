import { cleanUrl } from './cleanUrl';

/**
 * Sets `target[name]` only if the browser gave a value: "", 0, null and undefined are how events
 * and errors say "unknown" (no source file, line 0), and absent stays absent (docs/wire-format.md: null means absent). A string
 * loses the credentials and fragments of the URLs in it.
 *
 * @example
 * setGiven(report, 'line', event.lineno) // nothing when lineno is 0
 */
export const setGiven = (target: Record<string, unknown>, name: string, value: unknown) => {
  if (value) target[name] = typeof value == 'string' ? cleanUrl(value) : value;
};
