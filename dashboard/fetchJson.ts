import type { ApiErrorBody } from '../collector/routes/apiTypes';

/** An answer of the read API that was not 2xx: its status and its error code (docs/responses.md). */
export interface ApiFailure {
  status: number;
  code: string;
  message: string;
}

/** A read refused for being one too many (429) is tried this often in all, waiting at most this long each time. */
const MAX_ATTEMPTS = 5;
const MAX_WAIT_SECONDS = 5;

/**
 * Reads this tab makes at once, at most: the collector holds a caller's fifth heavy read under way
 * back, and answers 429 past a short wait (README, "Running it for real"), so a page that asks for
 * more at once (the sites list reads two views per site) queues them here, in its own order.
 */
const READS_AT_ONCE = 4;
let readsUnderWay = 0;
const waitingReads: Array<() => void> = [];

/** Resolves when this read may start; each start is followed by one `endRead`. */
const startRead = (): Promise<void> | void => {
  if (readsUnderWay < READS_AT_ONCE) {
    readsUnderWay++;
    return;
  }
  return new Promise((resolve) => waitingReads.push(resolve));
};

/** Hands the ended read's place to the oldest waiting one, or frees it. */
const endRead = () => {
  const next = waitingReads.shift();
  if (next) next();
  else readsUnderWay--;
};

const failure = async (response: Response): Promise<ApiFailure> => {
  // A proxy's refusal may have another shape: every field may be missing.
  let body: { error?: Partial<ApiErrorBody['error']> } | undefined;
  try {
    body = await response.json();
  } catch {
    // Not JSON (a proxy's page): the status says enough.
  }
  return { status: response.status, code: body?.error?.code ?? 'error', message: body?.error?.message ?? response.statusText };
};

/**
 * GETs a read API path with the session cookie (same origin), as JSON; rejects with an ApiFailure.
 * The dashboard reads nothing but the documented read API (docs/dashboard.md). Free of
 * Preact, so that the boot script (boot.ts) can start reads before the app is loaded.
 *
 * @example
 * const { data } = await getJson<{ data: Site[] }>('/api/v1/sites');
 */
export const getJson = async <T>(path: string): Promise<T> => {
  await startRead();
  try {
    return await readJson<T>(path);
  } finally {
    endRead();
  }
};

const readJson = async <T>(path: string): Promise<T> => {
  for (let attempt = 1; ; attempt++) {
    const response = await fetch(path, { credentials: 'same-origin', headers: { accept: 'application/json' } });
    // Heavy reads are bounded per user (README, "Running it for real"): a page opened in several
    // tabs at once waits its turn as Retry-After says, rather than showing a failure.
    if (response.status == 429 && attempt < MAX_ATTEMPTS) {
      await new Promise((resolve) => setTimeout(resolve, Math.min(Number(response.headers.get('retry-after')) || 1, MAX_WAIT_SECONDS) * 1000));
      continue;
    }
    if (!response.ok) throw await failure(response);
    return (await response.json()) as T;
  }
};

/**
 * Sends a write with the session cookie; the browser adds our Origin, which the collector checks (CSRF).
 *
 * @example
 * await send('DELETE', '/api/v1/session');
 * await send('PATCH', '/api/v1/sites/3f2a/issues/9b1c…', { status: 'resolved' });
 */
export const send = async (method: 'POST' | 'PATCH' | 'DELETE', path: string, body?: unknown): Promise<Response> => {
  const response = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? null : JSON.stringify(body),
  });
  if (!response.ok) throw await failure(response);
  return response;
};
