import { expect, test } from 'vitest';
import { readHtml } from './readHtml';

test('meta CSPs count only as children of <head>, with content, and not as Report-Only', () => {
  const facts = readHtml(`<!doctype html><html><head>
    <meta http-equiv="Content-Security-Policy" content="default-src 'self'">
    <meta http-equiv="content-security-policy" content="">
    <meta http-equiv="Content-Security-Policy-Report-Only" content="connect-src 'none'">
    <template><meta http-equiv="Content-Security-Policy" content="script-src 'none'"></template>
    <title> Shop
      checkout </title>
  </head><body><meta http-equiv="Content-Security-Policy" content="connect-src 'none'"></body></html>`);
  expect(facts.metaPolicies).toEqual(["default-src 'self'"]);
  expect(facts.title).toBe('Shop checkout');
});

test('a meta after body content has moved the parser into <body> does not count, as in a browser', () => {
  // "<p>" in the head implies </head><body>: the meta that follows is a child of body.
  const facts = readHtml(`<meta http-equiv="Content-Security-Policy" content="script-src 'self'"><p>hi</p><meta http-equiv="Content-Security-Policy" content="connect-src 'none'">`);
  expect(facts.metaPolicies).toEqual(["script-src 'self'"]);
});

test('finds the sitebeacon script tags and their endpoints; an <svg> title is not the title', () => {
  const facts = readHtml(`<body><svg><title>icon</title></svg>
    <script src="https://ingest.example/beacon.js" data-site-key="abc" data-ingest-origin="https://ingest.example" async></script>
    <script src="/app.js"></script>`);
  expect(facts.title).toBe('');
  expect(facts.beaconTags).toEqual([{ src: 'https://ingest.example/beacon.js', siteKey: 'abc', ingestOrigin: 'https://ingest.example', apiBase: undefined, integrity: undefined }]);
});

test('a hostile page nested a hundred thousand levels deep is read without exhausting the stack', () => {
  const facts = readHtml(`<title>deep</title>${'<div>'.repeat(100_000)}x`);
  expect(facts.title).toBe('deep');
});
