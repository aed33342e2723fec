import { main } from './main';

// The `sitebeacon` command (package.json "bin"). `serve` keeps running; the others exit.
main(process.argv.slice(2)).then((code) => {
  if (code) process.exitCode = code;
});
