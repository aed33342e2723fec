/** An answer of the read API that was not 2xx: its status and the design's error code. */
export interface ApiFailure {
  status: number;
  code: string;
  message: string;
}

const failure = async (response: Response): Promise<ApiFailure> => {
  let body: { error?: { code?: string; message?: string } } | undefined;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  return { status: response.status, code: body?.error?.code ?? 'error', message: body?.error?.message ?? response.statusText };
};

/**
 * GETs a read API path with the session cookie (same origin), as JSON; rejects with an ApiFailure.
 * The dashboard reads nothing but the documented read API (design, "Layout": dashboard/). Free of
 * Preact, so that the boot script (boot.ts) can start reads before the app is loaded.
 *
 * @example
 * const { data } = await getJson<{ data: Site[] }>('/api/v1/sites');
 */
export const getJson = async <T>(path: string): Promise<T> => {
  const response = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
  if (!response.ok) throw await failure(response);
  return (await response.json()) as T;
};

/**
 * Sends a write with the session cookie; the browser adds our Origin, which the collector checks (CSRF).
 *
 * @example
 * await send('DELETE', '/api/v1/session');
 */
export const send = async (method: 'POST' | 'DELETE', path: string, body?: unknown): Promise<Response> => {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return response;
};
