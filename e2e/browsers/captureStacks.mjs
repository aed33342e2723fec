// Captures the stacks in collector/fixtures/stacks/: builds the shop app (rollup + terser, a source
// map with a debug ID), serves it with collector/fixtures/stacks/page/stacks.js on a loopback page,
// and writes each case's `error.stack` as each browser gave it. Run once, by hand, and commit what it
// writes: `node e2e/browsers/captureStacks.mjs [chromium|firefox|webkit ...]`. The drivers are the
// cross-browser suite's own (TypeScript, loaded through vite's module runner).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runnerImport } from 'vite';

const load = async (path) => (await runnerImport(fileURLToPath(new URL(path, import.meta.url)))).module;
const { buildStackApp, STACK_APP_BUNDLE } = await load('../../collector/testing/buildStackApp.ts');
const { launchPuppeteer } = await load('./puppeteerDriver.ts');
const { launchWebKit } = await load('./webkitDriver.ts');

const FIXTURES = fileURLToPath(new URL('../../collector/fixtures/stacks/', import.meta.url));
mkdirSync(STACK_APP_BUNDLE, { recursive: true });
await buildStackApp(STACK_APP_BUNDLE);

const FILES = {
  '/stacks.js': join(FIXTURES, 'page/stacks.js'),
  '/app.min.js': join(STACK_APP_BUNDLE, 'app.min.js'),
  '/app.min.js.map': join(STACK_APP_BUNDLE, 'app.min.js.map'),
};
const PAGE = '<!doctype html><html lang="en"><title>stacks</title><h1>Stacks</h1><script src="/stacks.js"></script></html>';
const server = createServer((req, res) => {
  const path = new URL(req.url, 'http://x').pathname;
  if (path == '/') return res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(PAGE);
  if (!FILES[path]) return res.writeHead(404).end('not found');
  res.writeHead(200, { 'content-type': path.endsWith('.map') ? 'application/json' : 'text/javascript' });
  res.end(readFileSync(FILES[path]));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

const LAUNCH = { chromium: () => launchPuppeteer('chromium'), firefox: () => launchPuppeteer('firefox'), webkit: launchWebKit };
const wanted = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(LAUNCH);
try {
  for (const name of wanted) {
    const browser = await LAUNCH[name]();
    try {
      await browser.goto(`${origin}/`);
      const stacks = await browser.evaluate('return await window.collectStacks();');
      const capture = { browser: name, version: browser.version, userAgent: browser.userAgent, origin, stacks };
      writeFileSync(join(FIXTURES, `${name}.json`), `${JSON.stringify(capture, null, 2)}\n`);
      console.log(`${name} ${browser.version}: ${Object.keys(stacks).length} stacks`);
    } finally {
      await browser.close();
    }
  }
} finally {
  server.close();
}
