import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiPath } from '../collector/routes/apiPath';
import { getJson, type ApiFailure } from './fetchJson';
import { takeEarly } from './early';

export { getJson, send, type ApiFailure } from './fetchJson';

/** What a page's data is: loading, loaded, or failed. */
export type Loaded<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'failed'; failure: ApiFailure };

/**
 * Loads `path` (again whenever it changes); null loads nothing. A new `version` loads the same path
 * again and keeps showing what was loaded until the new answer is in (no "Loading…" flash). The
 * answer's type is the one the route declares (apiPath.ts).
 *
 * @example
 * const sites = useApi(apiPath('/api/v1/sites', {})); // Loaded<{ data: Site[] }>
 */
export const useApi = <T,>(path: ApiPath<T> | null, version = 0): Loaded<T> => {
  const [loaded, setLoaded] = useState<Loaded<T>>({ state: 'loading' });
  const shown = useRef<string | null>(null);
  useEffect(() => {
    if (path === null) return;
    let current = true;
    if (shown.current !== path) setLoaded({ state: 'loading' });
    shown.current = path;
    // The boot script may have asked already (early.ts): the first load takes its answer.
    (takeEarly<T>(path) ?? getJson<T>(path)).then(
      (data) => current && setLoaded({ state: 'ready', data }),
      (error: ApiFailure) => current && setLoaded({ state: 'failed', failure: error?.status ? error : { status: 0, code: 'network', message: String(error) } }),
    );
    return () => {
      current = false;
    };
  }, [path, version]);
  return loaded;
};
