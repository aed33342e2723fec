import { getJson } from './fetchJson';

const started = new Map<string, Promise<unknown>>();

/**
 * Starts reading `path` now, before the app that shows it is loaded (boot.ts): the read API's
 * answer then travels while the browser fetches and compiles the app, instead of after. With
 * `after`, once those reads are answered (or failed): the collector answers a page's reads one at
 * a time, so what is below the fold waits rather than delaying the first screen. Resolves to the
 * answer.
 *
 * @example
 * readEarly('/api/v1/session');
 * readEarly('/api/v1/sites/3f2a/pages?since=…', [readEarly('/api/v1/sites/3f2a/error-groups?since=…')]);
 */
export const readEarly = (path: string, after: Array<Promise<unknown>> = []): Promise<unknown> => {
  const answer = after.length ? Promise.allSettled(after).then(() => getJson(path)) : getJson(path);
  // Whoever takes it handles a failure; one nobody takes must not be an unhandled rejection.
  answer.catch(() => {});
  started.set(path, answer);
  return answer;
};

/**
 * The read of `path` started early, once (a later load of the same path reads anew), or undefined.
 *
 * @example
 * const answer = takeEarly<Session>('/api/v1/session') ?? getJson<Session>('/api/v1/session');
 */
export const takeEarly = <T>(path: string): Promise<T> | undefined => {
  const answer = started.get(path) as Promise<T> | undefined;
  started.delete(path);
  return answer;
};
