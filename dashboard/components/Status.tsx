import type { ApiFailure } from '../api';

/**
 * What a page shows while its data loads, or when the read API refused: 401 leads to the sign-in,
 * 403 says the account may not see this site, anything else says what failed.
 *
 * @example
 * if (loaded.state != 'ready') return <Status loaded={loaded} />;
 */
export const Status = ({ loaded }: { loaded: { state: 'loading' } | { state: 'failed'; failure: ApiFailure } }) => {
  if (loaded.state == 'loading') return <p class="muted" role="status">Loading…</p>;
  const { status, message } = loaded.failure;
  if (status == 401) {
    return (
      <p role="alert">
        You are signed out. <a href="/">Sign in</a>
      </p>
    );
  }
  if (status == 403) return <p role="alert">Forbidden: this account may not see this site.</p>;
  if (status == 404) return <p role="alert">Not found: {message}</p>;
  return <p role="alert">The collector answered {status || 'nothing'}: {message}</p>;
};
