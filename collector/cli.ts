// The `sitebeacon` command (package.json "bin"). `serve` keeps running, on a thread of its own
// (cli/serveOnThread.ts: the heap limits it needs); the others run here and exit. Nothing of the
// collector is loaded on this thread for `serve`.
const args = process.argv.slice(2);
if (args[0] == 'serve') {
  const { serveOnThread } = await import('./cli/serveOnThread');
  // serveThread.ts, which the build puts beside this file (rollup.config.mjs).
  serveOnThread(new URL('./serveThread.js', import.meta.url), args.slice(1));
} else {
  const { main } = await import('./main');
  const code = await main(args);
  if (code) process.exitCode = code;
}

export {};
