import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { serve } from 'h3';
import { afterAll, beforeAll } from 'vitest';
import { createTestCollector } from '../../testing/testCollector';
import { makeTestCertificates } from './testCertificates';

/** What useHttpsCollector hands a test file; its fields are set in its beforeAll. */
export interface HttpsCollector {
  /** The test certificates: `rootCa` is what `check --ca` trusts; `valid` is the collector's. */
  certificates: ReturnType<typeof makeTestCertificates>;
  collector: ReturnType<typeof createTestCollector>;
  port: number;
  /** `https://collector.test:PORT`: runCheckForTest resolves collector.test to 127.0.0.1. */
  origin: string;
}

/**
 * A unit-test collector served over HTTPS on a free port of 127.0.0.1, for the whole test file
 * (vitest's beforeAll and afterAll), with a certificate for collector.test issued by the test root:
 * what `sitebeacon check` checks, verified end to end. After the file, it is stopped and its
 * certificates' folder removed.
 *
 * @example
 * const served = useHttpsCollector('sitebeacon-check-');
 * test('…', async () => { await runCheckForTest([`${served.origin}/api`, '--ca', served.certificates.rootCa]); });
 */
export const useHttpsCollector = (prefix: string): HttpsCollector => {
  const served = {} as HttpsCollector;
  let dir: string;
  let server: ReturnType<typeof serve>;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), prefix));
    served.certificates = makeTestCertificates(dir);
    served.collector = createTestCollector();
    server = serve(served.collector.app, { port: 0, hostname: '127.0.0.1', silent: true, gracefulShutdown: false, tls: served.certificates.valid, node: { http2: false } });
    await server.ready();
    served.port = (server.node!.server!.address() as AddressInfo).port;
    served.origin = `https://collector.test:${served.port}`;
  });
  afterAll(async () => {
    await server.close(true);
    await served.collector.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return served;
};
