import type { H3 } from 'h3';

const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');

/** The demo page of `npm start`: loads `/beacon.js` and has a button that throws. */
export const demoRoutes = (app: H3, { siteKey, publicUrl }: { siteKey: string; publicUrl: () => string }) => {
  app.get('/', (event) => {
    const origin = escapeAttribute(publicUrl());
    event.res.headers.set('cache-control', 'no-store');
    event.res.headers.set('content-type', 'text/html; charset=utf-8');
    return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>sitebeacon demo</title>
<script src="${origin}/beacon.js" data-site-key="${escapeAttribute(siteKey)}" data-ingest-origin="${origin}" async></script>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}button{font:inherit;padding:.5rem 1rem}</style>
</head>
<body>
<h1>sitebeacon demo</h1>
<p>This page loads <code>/beacon.js</code> for the site <code>${escapeAttribute(siteKey)}</code>.
The button throws an uncaught error; the beacon reports it to this collector.</p>
<p><button id="throw" type="button">Throw an error</button></p>
<p>See what was stored: <code>npx sitebeacon export --site ${escapeAttribute(siteKey)} --kind errors</code></p>
<script>
function checkout() {
  throw new TypeError('demo: the cart is empty');
}
document.getElementById('throw').addEventListener('click', function () { checkout(); });
</script>
</body>
</html>
`;
  });
};
