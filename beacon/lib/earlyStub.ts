/**
 * The inline stub the generated snippet places before the async `beacon.js` tag (docs/early-capture.md).
 * Until the beacon has loaded, it keeps the page's `error` (capture phase: failed `<img>`, `<script>`
 * and `<link>` loads too), `unhandledrejection` and `securitypolicyviolation` events, each with the
 * time it happened, at most 100, in the global named by EARLY_QUEUE. The beacon takes them on arrival
 * (beacon/init.ts) and stops the stub's queue by replacing the array's `push`.
 *
 * ES5, written by hand and kept byte-exact: its SHA-256 is the `'sha256-…'` source a page with a
 * strict `script-src` allows it by, so a change here changes every snippet's hash.
 */
export const EARLY_STUB =
  "!function(w,q){q=w.sitebeaconQueue=[];['error','unhandledrejection','securitypolicyviolation'].forEach(function(t){w.addEventListener(t,function(e){q.length<100&&q.push([e,Date.now()])},!0)})}(window)";

/** The global the stub keeps its queue in: `[event, time][]`. */
export const EARLY_QUEUE = 'sitebeaconQueue';
