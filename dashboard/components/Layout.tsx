import type { ComponentChildren } from 'preact';
import { send } from '../api';

/**
 * The frame of every page: a skip link, the header with the navigation and the signed-in user
 * with a sign-out button, and the page's main landmark.
 *
 * @example
 * <Layout email="ann@shop.example" title="Sites"><p>…</p></Layout>
 */
export const Layout = ({ email, title, children }: { email?: string | undefined; title: string; children: ComponentChildren }) => {
  document.title = `${title} · sitebeacon`;
  const signOut = async () => {
    try {
      await send('DELETE', '/api/v1/session');
    } finally {
      location.assign('/');
    }
  };
  return (
    <>
      <a class="skip" href="#main">
        Skip to content
      </a>
      <header class="top">
        <a class="brand" href="/">
          sitebeacon
        </a>
        <nav aria-label="Main">
          <a href="/">Sites</a>
          <a href="/docs">Docs</a>
        </nav>
        {email && (
          <div class="user">
            <span class="email">{email}</span>
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          </div>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
};
