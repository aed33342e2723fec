import { useState } from 'preact/hooks';
import { send, type ApiFailure } from '../api';
import { Layout } from '../components/Layout';

/**
 * The sign-in form (`POST /api/v1/session`). On success the page reloads where it was: the
 * collector has set the HttpOnly cookie, which no script here can read.
 *
 * @example
 * <SignIn />
 */
export const SignIn = () => {
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget as HTMLFormElement);
    setBusy(true);
    setMessage('');
    try {
      await send('POST', '/api/v1/session', { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') });
      location.reload();
    } catch (error) {
      const { status, message: detail } = error as ApiFailure;
      setMessage(status == 401 ? 'The email or the password is not right.' : status == 429 ? `Too many attempts: ${detail}` : `Sign-in failed: ${detail}`);
      setBusy(false);
    }
  };
  return (
    <Layout title="Sign in">
      <section class="signin">
        <h1>Sign in</h1>
        <form onSubmit={submit} method="post" action="/api/v1/session">
          <label for="email">Email</label>
          <input id="email" name="email" type="email" autocomplete="username" required maxLength={254} />
          <label for="password">Password</label>
          <input id="password" name="password" type="password" autocomplete="current-password" required maxLength={1024} />
          <button type="submit" disabled={busy}>
            {busy ? 'Signing in…' : 'Sign in'}
          </button>
          <p class="error" role="alert">
            {message}
          </p>
        </form>
        <p class="muted">
          No account yet? On the collector's machine: <code>npx sitebeacon user add --email you@example.com</code>
        </p>
      </section>
    </Layout>
  );
};
