import { main } from './main';

// The `sitebeacon` command (package.json "bin"). `serve` keeps running; the others exit.
main(process.argv.slice(2)).then((code) => {
  if (code) process.exitCode = code;
  // `check` ends within --timeout (spec section 8), but a system DNS lookup it gave up on may
  // still be pending in libuv's thread pool and would hold the process: exit now.
  if (process.argv[2] == 'check') process.exit(code);
});
