import { cleanUrl } from './cleanUrl';

/**
 * A report as it leaves the page: every string loses the credentials and fragments of the URLs in
 * it (cleanUrl), and, unless `keepEmpty`, a field the browser did not give is left out: "", 0,
 * false and null are how events and errors say "unknown" (no source file, line 0), and absent
 * stays absent. `error_message` is always kept, as the wire requires. A performance session keeps
 * its zeros (a CLS of 0 is a value).
 *
 * @example
 * toWireJson({ error_message: '', line: 0, page_url: 'https://shop.example/#t' }) // '{"error_message":"","page_url":"https://shop.example/"}'
 */
export const toWireJson = (value: unknown, keepEmpty?: boolean) =>
  JSON.stringify(value, (key, field) =>
    field || keepEmpty || key == 'error_message' ? (typeof field == 'string' ? cleanUrl(field) : field) : undefined,
  );
