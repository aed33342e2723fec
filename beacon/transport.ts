const noop = () => {};

/**
 * Posts one JSON body to the collector. Resolves when the request settles; never rejects.
 *
 * At page exit only `sendBeacon` reliably outlives the page; it sends a string body as
 * `text/plain;charset=UTF-8`, which needs no preflight (Chromium refuses non-safelisted Blob
 * types there, crbug.com/490015). Otherwise `fetch` with `keepalive` and the spec's
 * `application/json` type; the collector answers that preflight.
 *
 * @example
 * await post('https://in.example/api/error-reports/KEY', '{"error_type":"manual","error_message":"x"}', false);
 */
export const post = (url: string, body: string, atExit: boolean): Promise<void> => {
  try {
    // sendBeacon answers false when the body does not fit its quota: fall through to fetch then.
    if (atExit && 'sendBeacon' in navigator && navigator.sendBeacon(url, body)) {
      return Promise.resolve();
    }
    if (typeof fetch != 'function') return Promise.resolve();
    return fetch(url, {
      method: 'POST',
      body,
      keepalive: true,
      credentials: 'omit',
      headers: { 'Content-Type': 'application/json' },
    }).then(noop, noop);
  } catch {
    // A URL the browser rejects, or a page that replaced fetch with something that throws.
    return Promise.resolve();
  }
};
