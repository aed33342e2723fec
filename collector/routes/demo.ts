import { setupUrls, snippet, type Links } from '../core/setupUrls';
import { defineRoute, type Route } from '../http/route';

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/**
 * The demo page of `npm start`: the generated snippet (the early-capture stub, then `/beacon.js`:
 * docs/early-capture.md) and a button that throws. It sends no Content-Security-Policy, so the
 * stub's inline script needs no hash here.
 */
export const demoRoutes = ({ siteKey, links }: { siteKey: string; links: Links }): Route[] => [
  defineRoute({
    method: 'GET',
    path: '/demo',
    tag: 'Demo',
    summary: 'The demo page (serve --demo)',
    auth: 'none',
    responses: { 200: { description: 'HTML', contentType: 'text/html' } },
    handle: ({ event }) => {
      event.res.headers.set('cache-control', 'no-store');
      event.res.headers.set('content-type', 'text/html; charset=utf-8');
      return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>sitebeacon demo</title>
${snippet(setupUrls(links), siteKey)}
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem}</style>
</head>
<body>
<h1>sitebeacon demo</h1>
<p>This page loads <code>/beacon.js</code> for the site <code>${escapeAttribute(siteKey)}</code>.
The button throws an uncaught error; the beacon reports it to this collector.</p>
<p><button id="throw" type="button">Throw an error</button></p>
<p>See what was stored on the <a href="/">dashboard</a> (sign in with the demo user <code>npm start</code> printed), or:
<code>npx sitebeacon export --site ${escapeAttribute(siteKey)} --kind errors</code></p>
<script>
function checkout() {
  throw new TypeError('demo: the cart is empty');
}
document.getElementById('throw').addEventListener('click', function () { checkout(); });
</script>
</body>
</html>
`;
    },
  }),
];
