import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectProxy, httpServer, httpsServer, refusedPort, silentListener, tlsListener, type FaultServer } from './testing/faultServers';
import { useHttpsCollector } from './testing/httpsCollector';
import { fakeResolver, runCheckForTest } from './testing/runCheckForTest';

const served = useHttpsCollector('sitebeacon-check-');
let siteKey: string;
const servers: FaultServer[] = [];

const later = async <T extends FaultServer>(server: Promise<T>) => {
  const started = await server;
  servers.push(started);
  return started;
};

beforeAll(async () => {
  siteKey = await served.collector.addSite(['https://shop.example'], 'Shop');
});

afterAll(async () => {
  await Promise.all(servers.map((server) => server.close()));
});

const collectorUrl = () => `${served.origin}/api`;

describe('a healthy collector', () => {
  test('passes every step over verified HTTPS, and --site stores one report marked connectivity_check', async () => {
    const result = await runCheckForTest([collectorUrl(), '--site', siteKey, '--ca', served.certificates.rootCa, '--json']);
    expect(result.code, result.out).toBe(0);
    expect(result.steps.map((step) => [step.step, step.ok])).toEqual([
      ['dns', true], ['connect', true], ['tls', true], ['http', true], ['submission', true],
    ]);
    for (const step of result.steps) expect(Object.keys(step).sort()).toEqual(['detail', 'ms', 'ok', 'step']);
    expect(result.steps[0]!.detail).toBe('collector.test resolves to 127.0.0.1');
    expect(result.steps[2]!.detail).toMatch(/^TLSv1\.[23], certificate for collector\.test issued by Sitebeacon Test Root, valid until \d{4}-\d\d-\d\d, verified$/);
    expect(result.steps[3]!.detail).toContain('answered 200 {"status":"success"}');
    const stored = await served.collector.stored('errors', siteKey);
    expect(stored.map((report) => report.error_type)).toEqual(['connectivity_check']);
    expect(stored[0]!.error_message).toMatch(/^sitebeacon check from /);
  });

  test('prints one line per step with its time, then the verdict and the reminder about browsers', async () => {
    const result = await runCheckForTest([collectorUrl(), '--ca', served.certificates.rootCa]);
    expect(result.code).toBe(0);
    expect(result.lines.slice(0, 4).map((line) => line.split(/\s+/).slice(0, 4))).toEqual([
      ['ok', 'dns', expect.stringMatching(/^\d+$/), 'ms'],
      ['ok', 'connect', expect.stringMatching(/^\d+$/), 'ms'],
      ['ok', 'tls', expect.stringMatching(/^\d+$/), 'ms'],
      ['ok', 'http', expect.stringMatching(/^\d+$/), 'ms'],
    ]);
    expect(result.lines[4]).toBe(`All 4 steps passed: this machine reaches the collector at ${collectorUrl()}.`);
    expect(result.lines[5]).toContain('add --page PAGE_URL');
  });

  test('an unknown site key: the submission is refused, exit 8 with the status and body', async () => {
    const result = await runCheckForTest([collectorUrl(), '--site', 'no-such-site', '--ca', served.certificates.rootCa, '--json']);
    expect(result.code).toBe(8);
    const failed = result.steps.at(-1)!;
    expect(failed).toMatchObject({ step: 'submission', ok: false });
    expect(failed.detail).toContain('was refused: 404 {"error":{"code":"unknown_site"');
    expect(failed.detail).toContain('does not know this site key');
  });

  test('HTTPS_PROXY is honoured and named; NO_PROXY bypasses it', async () => {
    const proxy = await later(connectProxy());
    const env = { HTTPS_PROXY: `http://127.0.0.1:${proxy.port}` };
    const result = await runCheckForTest([collectorUrl(), '--ca', served.certificates.rootCa, '--json'], { env, resolver: fakeResolver({}) });
    expect(result.code, result.out).toBe(0);
    expect(result.steps[0]!.detail).toBe(`proxy http://127.0.0.1:${proxy.port} (HTTPS_PROXY): 127.0.0.1 is an address; no lookup needed; the proxy resolves collector.test`);
    expect(result.steps[1]!.detail).toBe(`tunnel to collector.test:${served.port} open through the proxy http://127.0.0.1:${proxy.port} (HTTPS_PROXY)`);
    expect(proxy.targets).toEqual([`collector.test:${served.port}`]);

    const bypassed = await runCheckForTest([collectorUrl(), '--ca', served.certificates.rootCa, '--json'], { env: { ...env, NO_PROXY: '.test' } });
    expect(bypassed.code).toBe(0);
    expect(bypassed.steps[1]!.detail).toBe(`connected to collector.test:${served.port} (127.0.0.1)`);
    expect(proxy.targets).toHaveLength(1);
  });

  test('a proxy that refuses the tunnel is a proxy in the way: exit 6', async () => {
    const proxy = await later(connectProxy({ refuseWith: 403 }));
    const result = await runCheckForTest([collectorUrl(), '--ca', served.certificates.rootCa], { env: { https_proxy: `127.0.0.1:${proxy.port}` } });
    expect(result.code).toBe(6);
    expect(result.out).toContain(`the proxy http://127.0.0.1:${proxy.port} (https_proxy) refused the tunnel to collector.test:${served.port} (403 Refused)`);
  });
});

describe('network faults', () => {
  test('DNS failure (injected resolver): exit 3, naming the resolver error', async () => {
    const result = await runCheckForTest(['https://nowhere.test/api'], { resolver: fakeResolver({}) });
    expect(result.code).toBe(3);
    expect(result.lines[0]).toMatch(/^FAIL dns +\d+ ms {2}DNS on this machine cannot resolve nowhere\.test \(ENOTFOUND\): the name does not exist/);
  });

  test('a resolver that never answers: exit 3 within --timeout', async () => {
    const result = await runCheckForTest(['https://hang.test/api', '--timeout', '1'], { resolver: () => new Promise(() => undefined) });
    expect(result.code).toBe(3);
    expect(result.out).toContain('did not resolve hang.test within the total 1 s (--timeout)');
    expect(result.ms).toBeLessThan(2000);
  });

  test('a refused port: exit 4, ECONNREFUSED', async () => {
    const port = await refusedPort();
    const result = await runCheckForTest([`https://collector.test:${port}/api`]);
    expect(result.code).toBe(4);
    expect(result.out).toContain(`collector.test:${port} (127.0.0.1) refused the connection (ECONNREFUSED)`);
  });

  test('a listener that accepts and never answers: exit 4, and the check ends within --timeout + 1 s', async () => {
    const silent = await later(silentListener());
    const result = await runCheckForTest([`https://collector.test:${silent.port}/api`, '--timeout', '2']);
    expect(result.code).toBe(4);
    expect(result.out).toContain(`no TLS answer from collector.test:${silent.port}, which accepted the connection, within the total time of 2 s (--timeout)`);
    expect(result.ms).toBeGreaterThanOrEqual(1900);
    expect(result.ms).toBeLessThan(3000);
  });

  test('the same listener over plain HTTP: the request gets no answer, exit 4 within --timeout + 1 s', async () => {
    const silent = await later(silentListener());
    const result = await runCheckForTest([`http://127.0.0.1:${silent.port}/api`, '--timeout', '1.5', '--json']);
    expect(result.code).toBe(4);
    expect(result.steps.at(-1)).toMatchObject({ step: 'http', ok: false });
    expect(result.steps.at(-1)!.detail).toContain('no HTTP answer to GET http://127.0.0.1');
    expect(result.ms).toBeLessThan(2500);
  });

  test('--connect-timeout bounds the handshake of a silent listener before --timeout does', async () => {
    const silent = await later(silentListener());
    const result = await runCheckForTest([`https://collector.test:${silent.port}/api`, '--connect-timeout', '0.5', '--timeout', '5']);
    expect(result.code).toBe(4);
    expect(result.out).toContain('within the connect timeout of 0.5 s (--connect-timeout)');
    expect(result.ms).toBeLessThan(1500);
  });
});

describe('certificates (verification stays on)', () => {
  const tlsCheck = async (pair: { key: string; cert: string }) => {
    const server = await later(tlsListener(pair));
    return runCheckForTest([`https://collector.test:${server.port}/api`, '--ca', served.certificates.rootCa, '--json']);
  };

  test('self-signed: exit 5, pointing to the CA certificates', async () => {
    const result = await tlsCheck(served.certificates.selfSigned);
    expect(result.code).toBe(5);
    expect(result.steps.at(-1)).toMatchObject({ step: 'tls', ok: false });
    expect(result.steps.at(-1)!.detail).toContain('certificate error pointing to the CA certificates: collector.test presents a self-signed certificate ("collector.test")');
  });

  test('expired: exit 5, pointing to the clock, with the date', async () => {
    const result = await tlsCheck(served.certificates.expired);
    expect(result.code).toBe(5);
    expect(result.steps.at(-1)!.detail).toContain('certificate error pointing to the clock: the certificate for collector.test expired on 2020-02-01');
  });

  test('not yet valid: exit 5, pointing to the clock being behind', async () => {
    const result = await tlsCheck(served.certificates.notYetValid);
    expect(result.code).toBe(5);
    expect(result.steps.at(-1)!.detail).toContain('is valid only from 2099-01-01, but this machine\'s clock says');
  });

  test('a certificate for another name: exit 5, name mismatch', async () => {
    const result = await tlsCheck(served.certificates.wrongName);
    expect(result.code).toBe(5);
    expect(result.steps.at(-1)!.detail).toContain('certificate error, name mismatch: the certificate presented is for DNS:other.example, not for collector.test');
  });

  test('issued by an untrusted inspection proxy: exit 5, naming TLS interception and the product', async () => {
    const result = await tlsCheck(served.certificates.intercepted);
    expect(result.code).toBe(5);
    expect(result.steps.at(-1)!.detail).toContain('certificate error pointing to TLS interception: collector.test answered with a certificate issued by "Zscaler Root CA" (Zscaler Inc.), which looks like Zscaler');
  });

  test('without --ca the test root is unknown: the verification is real', async () => {
    const result = await runCheckForTest([collectorUrl()]);
    expect(result.code).toBe(5);
    expect(result.out).toContain('pointing to the CA certificates');
  });
});

describe('answers that are not the collector', () => {
  test('a 403 HTML challenge page: exit 6, naming the proxy/WAF and the page title', async () => {
    const waf = await later(
      httpsServer(served.certificates.valid, (_request, response) =>
        response.writeHead(403, { 'content-type': 'text/html', server: 'cloudflare', 'cf-ray': '8a-AMS' }).end('<!doctype html><html><head><title>Attention Required! | Cloudflare</title></head><body>…</body></html>'),
      ),
    );
    const result = await runCheckForTest([`https://collector.test:${waf.port}/api`, '--ca', served.certificates.rootCa]);
    expect(result.code).toBe(6);
    expect(result.out).toContain(`HTTP 403 with an HTML page titled "Attention Required! | Cloudflare" for GET https://collector.test:${waf.port}/api/test-connectivity: a proxy or web application firewall (Cloudflare) is intervening`);
  });

  test('an HTML page with 200 where JSON was expected (a captive portal): exit 6 with its title', async () => {
    const portal = await later(httpServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end('<title>Hotel Wi-Fi \u001b[2J login</title>')));
    const result = await runCheckForTest([`http://127.0.0.1:${portal.port}`]);
    expect(result.code).toBe(6);
    expect(result.out).toContain('HTTP 200 with an HTML page titled "Hotel Wi-Fi [2J login" where JSON was expected');
    expect(result.out).not.toContain('\u001b');
  });

  test('a JSON server that is not a collector: exit 7', async () => {
    const other = await later(httpServer((_request, response) => response.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not Found"}')));
    const result = await runCheckForTest([`http://127.0.0.1:${other.port}/api`]);
    expect(result.code).toBe(7);
    expect(result.out).toContain('answered 404 {"message":"Not Found"}, not 200 {"status":"success"}: this is not a sitebeacon collector, or the base URL is wrong');
  });

  test('200 JSON with another status: exit 7', async () => {
    const other = await later(httpServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}')));
    const result = await runCheckForTest([`http://127.0.0.1:${other.port}/api`]);
    expect(result.code).toBe(7);
  });
});

describe('usage', () => {
  test.each([
    [[], 'check needs the collector URL'],
    [['https://c.example/ingest'], 'whose path ends with /api'],
    [['ftp://c.example/api'], 'over https'],
    [['c.example', '--timeout', 'soon'], '--timeout soon is not a number of seconds'],
    [['c.example', '--page', 'not a url'], '--page not a url is not a URL'],
    [['c.example', '--ca', '/nonexistent/ca.pem'], 'ENOENT'],
    [['c.example', '--bogus'], "Unknown option '--bogus'"],
  ])('%j is a usage error (exit 2)', async (argv, message) => {
    const result = await runCheckForTest(argv);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
  });
});
