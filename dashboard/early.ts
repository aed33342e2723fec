import { getJson } from './fetchJson';

const started = new Map<string, Promise<unknown>>();

/**
 * Starts reading `path` now, before the app that shows it is loaded (boot.ts): the read API's
 * answer then travels while the browser fetches and compiles the app, instead of after.
 *
 * @example
 * readEarly('/api/v1/session');
 */
export const readEarly = (path: string) => {
  const answer = getJson(path);
  // Whoever takes it handles a failure; one nobody takes must not be an unhandled rejection.
  answer.catch(() => {});
  started.set(path, answer);
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
