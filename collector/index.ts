// The collector as a library (`sitebeacon/collector`), for embedding it in another Node server
// and for the benchmarks: the same app and store the CLI runs.
export { createCollector } from './app';
export type { CollectorOptions, RequestLogEntry } from './app';
export { createSqliteStore } from './store/sqlite';
export { hashApiKey } from './http/apiKeys';
export type { Store } from './store/store';
