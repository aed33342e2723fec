import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect } from 'vitest';
import { createTestCollector } from './testCollector';

/** What useIntegrationsCollector hands a test file; its fields are made anew before each test. */
export interface IntegrationsCollector {
  collector: ReturnType<typeof createTestCollector>;
  /** The folder the collector serves agent builds from (agents/); removed after each test. */
  updatesDir: string;
  /** An API key for the whole installation. */
  installationKey: string;
  /** Two sites, https://shop.example and https://blog.example, and an API key for each. */
  shop: string;
  blog: string;
  shopKey: string;
  blogKey: string;
  /** A request with `key` as its bearer token and `body` as JSON (sent as it is when a string). */
  call: (method: string, path: string, key: string | undefined, body?: unknown) => Promise<Response>;
  /** An answer's JSON body, loosely typed for assertions. */
  json: (response: Response) => Promise<Record<string, any>>;
}

/**
 * The collector the integration APIs' tests share (WordPress, verify-api-key, CSP projects,
 * server agents), registered as vitest hooks: before each test a fresh one, with an ingest URL,
 * agent updates signed by a new key, an installation key, and two sites with a key each; after
 * it, no internal error logged, and everything removed.
 *
 * @example
 * const kit = useIntegrationsCollector();
 * const { call, json } = kit;
 * test('a site key verifies', async () => {
 *   expect(await json(await call('POST', '/api/v1/verify-api-key', kit.shopKey))).toMatchObject({ valid: true });
 * });
 */
export const useIntegrationsCollector = (): IntegrationsCollector => {
  const kit = {
    call: (method, path, key, body) =>
      kit.collector.request(path, {
        method,
        headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : typeof body == 'string' ? body : JSON.stringify(body),
      }),
    json: async (response) => (await response.json()) as Record<string, any>,
  } as IntegrationsCollector;
  beforeEach(async () => {
    kit.updatesDir = mkdtempSync(join(tmpdir(), 'sitebeacon-updates-'));
    kit.collector = createTestCollector({
      ingestUrl: 'https://in.example',
      agentUpdates: { dir: kit.updatesDir, privateKey: generateKeyPairSync('ed25519').privateKey },
    });
    kit.installationKey = await kit.collector.apiKey();
    kit.shop = await kit.collector.addSite(['https://shop.example'], 'Shop');
    kit.blog = await kit.collector.addSite(['https://blog.example'], 'Blog');
    kit.shopKey = await kit.collector.apiKey(kit.shop);
    kit.blogKey = await kit.collector.apiKey(kit.blog);
  });
  afterEach(async () => {
    expect(kit.collector.errors).toEqual([]);
    await kit.collector.close();
    rmSync(kit.updatesDir, { recursive: true, force: true });
  });
  return kit;
};
