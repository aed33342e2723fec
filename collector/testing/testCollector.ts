import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AgentUpdates } from '../agents/updates';
import { createCollector, type CollectorOptions, type RequestLogEntry } from '../app';
import { hashApiKey, newApiKey } from '../core/keys';
import { hashPassword } from '../core/passwords';
import { UndeclaredAnswerError } from '../http/checkAnswer';
import type { RateLimits } from '../http/rateLimiter';
import { createSqliteStore } from '../store/sqlite';
import { seedStore } from './seed';

/**
 * A collector on a real, fresh SQLite file for unit tests, called in-process through
 * `app.fetch(new Request(...))`. `close()` removes the file.
 */
export const createTestCollector = (
  options: {
    demo?: boolean;
    rateLimits?: Partial<RateLimits>;
    trustProxy?: boolean;
    ingestUrl?: string;
    agentUpdates?: AgentUpdates;
    /** How alerts are sent: a test's mailer, `allowPrivateWebhooks` for a receiver on loopback. */
    alerts?: CollectorOptions['alerts'];
  } = {},
) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-unit-'));
  const file = join(dir, 'sitebeacon.db');
  const store = createSqliteStore({ file });
  const errors: unknown[] = [];
  const requestLog: RequestLogEntry[] = [];
  const app = createCollector({
    store,
    beaconFile: fileURLToPath(new URL('../../dist/beacon.min.js', import.meta.url)),
    links: { appUrl: () => 'http://127.0.0.1:8787', ingestUrl: () => options.ingestUrl },
    demo: options.demo ? { siteKey: 'demo' } : undefined,
    agentUpdates: options.agentUpdates,
    alerts: options.alerts,
    logError: (error) => {
      errors.push(error);
      // A route answering what it does not declare (http/checkAnswer.ts): loud, with what differs.
      if (error instanceof UndeclaredAnswerError) console.error(error.message);
    },
    logRequest: (entry) => requestLog.push(entry),
    // Unit tests send many requests from one address: limits only where a test sets them.
    rateLimits: options.rateLimits ?? { perIp: 0, perSite: 0 },
    trustProxy: options.trustProxy,
    // Every answer is checked against its route's declared schema: a route answering another shape fails its test.
    checkAnswers: true,
  });
  const request = async (path: string, init?: RequestInit): Promise<Response> =>
    app.fetch(new Request(`http://collector.test${path}`, init));
  return {
    app,
    store,
    /** addSite, insertErrors, insertCsp, upsertSession, stored: see seed.ts. */
    ...seedStore(store),
    file,
    /** Errors the collector logged as internal (a bug if any). */
    errors,
    /** The structured request log. */
    requestLog,
    request,
    /** Creates an API key for one site, or the whole installation; returns the key itself. */
    apiKey: async (siteKey?: string) => {
      const key = newApiKey();
      await store.apiKeys.create({ key_hash: hashApiKey(key), name: 'test', site_key: siteKey });
      return key;
    },
    /** Creates a dashboard user (every site, or the ones named); resolves to the stored user. */
    addUser: async (email: string, password: string, siteKeys?: string[]) =>
      store.users.create({ email, password_hash: await hashPassword(password), site_keys: siteKeys }),
    /** Signs in through `POST /api/v1/session`; resolves to the `Cookie` header value to send after. */
    signIn: async (email: string, password: string) => {
      const response = await request('/api/v1/session', {
        method: 'POST',
        body: JSON.stringify({ email, password }),
        headers: { 'content-type': 'application/json', origin: 'http://collector.test' },
      });
      if (response.status != 204) throw new Error(`sign-in answered ${response.status}: ${await response.text()}`);
      return response.headers.get('set-cookie')!.split(';')[0]!;
    },
    /** POSTs `body` (serialised unless a string) with the given Content-Type and headers. */
    post: (path: string, body: unknown, headers: Record<string, string> = {}) =>
      request(path, {
        method: 'POST',
        body: typeof body == 'string' ? body : JSON.stringify(body),
        headers: { 'content-type': 'application/json', ...headers },
      }),
    close: async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
};
