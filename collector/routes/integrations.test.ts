import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { verifyManifest, type UpdateManifest } from '../agents/updates';
import { useIntegrationsCollector } from '../testing/integrationsCollector';

const kit = useIntegrationsCollector();
const { call, json } = kit;

describe('POST /api/v1/verify-api-key', () => {
  test('a valid key: 200 with its scope; a wrong or missing key: 401 {"valid": false}', async () => {
    expect(await json(await call('POST', '/api/v1/verify-api-key', kit.installationKey))).toMatchObject({ valid: true, scope: { type: 'installation' } });
    expect(await json(await call('POST', '/api/v1/verify-api-key', kit.shopKey))).toMatchObject({ valid: true, scope: { type: 'site', site_key: kit.shop } });
    const byHeader = await kit.collector.request('/api/v1/verify-api-key', { method: 'POST', headers: { 'x-api-key': kit.shopKey } });
    expect(byHeader.status).toBe(200);
    for (const key of ['sbk_nope', undefined]) {
      const response = await call('POST', '/api/v1/verify-api-key', key);
      expect(response.status).toBe(401);
      expect(await json(response)).toMatchObject({ valid: false, error: { code: 'unauthorized' } });
    }
  });
});

describe('CSP projects', () => {
  const violation = (directive: string, blocked: string) => ({
    report_type: 'csp-violation',
    document_uri: 'https://shop.example/cart',
    effective_directive: directive,
    violated_directive: directive,
    blocked_uri: blocked,
  });

  test('create, list, read, update, suggest, header, delete', async () => {
    const created = await call('POST', '/api/v1/csp-projects', kit.shopKey, { site_key: kit.shop, name: 'Shop policy', base_policy: "default-src 'self'; img-src 'self'" });
    expect(created.status).toBe(201);
    const project = await json(created);
    expect(project).toMatchObject({ site_key: kit.shop, name: 'Shop policy', mode: 'report-only' });

    expect((await json(await call('GET', '/api/v1/csp-projects', kit.shopKey))).data).toHaveLength(1);
    expect((await json(await call('GET', '/api/v1/csp-projects', kit.blogKey))).data).toHaveLength(0);
    expect(await json(await call('GET', `/api/v1/csp-projects/${project.id}`, kit.installationKey))).toMatchObject({ id: project.id });

    await kit.collector.insertCsp(
      kit.shop,
      [violation('img-src', 'https://cdn.example.net/a.png'), violation('img-src', 'https://cdn.example.net/b.png'), violation('script-src-elem', 'https://ads.example.org/t.js')],
      Date.now(),
    );
    await kit.collector.insertCsp(kit.blog, [violation('img-src', 'https://blog-only.example/x.png')], Date.now());
    const suggestion = await json(await call('GET', `/api/v1/csp-projects/${project.id}/suggested-policy`, kit.shopKey));
    expect(suggestion).toMatchObject({
      // Each source in the directive violated: script-src created from default-src, never default-src widened.
      policy: "default-src 'self'; img-src 'self' https://cdn.example.net; script-src 'self' https://ads.example.org",
      based_on_reports: 3,
      directives: [
        { directive: 'img-src', added: [{ source: 'https://cdn.example.net', reports: 2 }] },
        { directive: 'script-src', added: [{ source: 'https://ads.example.org', reports: 1 }] },
      ],
      too_many: null,
    });

    const updated = await json(await call('PATCH', `/api/v1/csp-projects/${project.id}`, kit.shopKey, { mode: 'enforce', base_policy: suggestion.policy }));
    expect(updated).toMatchObject({ mode: 'enforce', base_policy: suggestion.policy });
    const header = await json(await call('GET', `/api/v1/csp-projects/${project.id}/header`, kit.shopKey));
    expect(header).toEqual({
      name: 'Content-Security-Policy',
      value: `${suggestion.policy}; report-uri https://in.example/api/csp-reports/${kit.shop}; report-to sitebeacon`,
      reporting_endpoints: { name: 'Reporting-Endpoints', value: `sitebeacon="https://in.example/api/csp-reports/${kit.shop}"` },
    });

    expect((await call('DELETE', `/api/v1/csp-projects/${project.id}`, kit.shopKey)).status).toBe(204);
    expect((await call('GET', `/api/v1/csp-projects/${project.id}`, kit.shopKey)).status).toBe(404);
  });

  test('one site\'s key never reads or changes another site\'s project', async () => {
    const project = await json(await call('POST', '/api/v1/csp-projects', kit.blogKey, { site_key: kit.blog, name: 'Blog', base_policy: "default-src 'self'" }));
    for (const [method, path, body] of [
      ['GET', `/api/v1/csp-projects/${project.id}`],
      ['PATCH', `/api/v1/csp-projects/${project.id}`, { name: 'mine now' }],
      ['DELETE', `/api/v1/csp-projects/${project.id}`],
      ['GET', `/api/v1/csp-projects/${project.id}/suggested-policy`],
      ['GET', `/api/v1/csp-projects/${project.id}/header`],
    ] as Array<[string, string, object?]>) {
      const response = await call(method, path, kit.shopKey, body);
      expect(response.status, `${method} ${path}`).toBe(403);
    }
    expect((await call('POST', '/api/v1/csp-projects', kit.shopKey, { site_key: kit.blog, name: 'x', base_policy: "default-src 'self'" })).status).toBe(403);
    expect(await kit.collector.store.cspProjects.get(project.id)).toMatchObject({ name: 'Blog' });
  });

  test.each([
    ['no key', () => call('GET', '/api/v1/csp-projects', undefined), 401, 'unauthorized'],
    ['an empty policy', () => call('POST', '/api/v1/csp-projects', kit.shopKey, { site_key: kit.shop, name: 'x', base_policy: ' ; ' }), 400, 'invalid_request'],
    ['a bad mode', () => call('POST', '/api/v1/csp-projects', kit.shopKey, { site_key: kit.shop, name: 'x', mode: 'strict', base_policy: "default-src 'self'" }), 400, 'invalid_request'],
    ['an unknown project', () => call('GET', '/api/v1/csp-projects/424242', kit.shopKey), 404, 'unknown_project'],
    ['a project id that is not a number', () => call('GET', '/api/v1/csp-projects/abc/header', kit.shopKey), 404, 'unknown_project'],
    ['an unknown site', () => call('POST', '/api/v1/csp-projects', kit.installationKey, { site_key: 'nope', name: 'x', base_policy: "default-src 'self'" }), 404, 'unknown_site'],
  ] as Array<[string, () => Promise<Response>, number, string]>)('%s', async (_name, request, status, code) => {
    const response = await request();
    expect(response.status).toBe(status);
    expect(await json(response)).toMatchObject({ error: { code } });
  });
});

describe('server agents', () => {
  const registerAgent = async (key = kit.installationKey) =>
    json(await call('POST', '/api/v1/server-agents/register', key, { hostname: 'web-1', os: 'debian-12', arch: 'amd64', agent_version: '1.0.0' }));

  test('register answers an id and a token; config and heartbeat take that token, and only for its own agent', async () => {
    const agent = await registerAgent();
    expect(agent).toMatchObject({ agent_id: expect.stringMatching(/^agt_[0-9a-f]{16}$/), agent_token: expect.stringMatching(/^sba_agt_/), heartbeat_interval: 300 });
    const config = await json(await call('GET', `/api/v1/server-agents/${agent.agent_id}/config`, agent.agent_token));
    expect(config).toMatchObject({ agent_id: agent.agent_id, app_url: 'http://127.0.0.1:8787', api_base: 'https://in.example/api', updates_enabled: true });
    expect(config.updates_url).toBe('http://127.0.0.1:8787/api/v1/server-agents/updates/latest');
    const beat = await call('POST', `/api/v1/server-agents/${agent.agent_id}/heartbeat`, agent.agent_token, { agent_version: '1.0.1', status: { load: 0.4 } });
    expect(await json(beat)).toEqual({ agent_id: agent.agent_id, next_heartbeat: 300 });
    expect(await kit.collector.store.agents.get(agent.agent_id)).toMatchObject({ agent_version: '1.0.1', status: { load: 0.4 } });

    const other = await registerAgent();
    expect((await call('GET', `/api/v1/server-agents/${other.agent_id}/config`, agent.agent_token)).status).toBe(403);
    expect((await call('GET', `/api/v1/server-agents/${agent.agent_id}/config`, kit.installationKey)).status).toBe(401);
    const forged = agent.agent_token.slice(0, -4) + 'AAAA';
    expect((await call('GET', `/api/v1/server-agents/${agent.agent_id}/config`, forged)).status).toBe(401);
  });

  test("DELETE /api/v1/server-agents/{id} with a key of the agent's site revokes it: its token is refused from the next request on (revocation)", async () => {
    const shopAgent = await registerAgent(kit.shopKey);
    const installationAgent = await registerAgent();
    const config = (agent: Record<string, any>) => call('GET', `/api/v1/server-agents/${agent.agent_id}/config`, agent.agent_token);
    expect((await config(shopAgent)).status).toBe(200);
    // Without a key, with another site's key, or with a site key for an installation-wide agent: refused, nothing revoked.
    expect((await call('DELETE', `/api/v1/server-agents/${shopAgent.agent_id}`, undefined)).status).toBe(401);
    expect((await call('DELETE', `/api/v1/server-agents/${shopAgent.agent_id}`, shopAgent.agent_token)).status).toBe(401);
    expect((await call('DELETE', `/api/v1/server-agents/${shopAgent.agent_id}`, kit.blogKey)).status).toBe(403);
    expect((await call('DELETE', `/api/v1/server-agents/${installationAgent.agent_id}`, kit.shopKey)).status).toBe(403);
    expect((await config(shopAgent)).status).toBe(200);
    expect((await config(installationAgent)).status).toBe(200);

    expect((await call('DELETE', `/api/v1/server-agents/${shopAgent.agent_id}`, kit.shopKey)).status).toBe(204);
    expect((await config(shopAgent)).status).toBe(401);
    expect((await call('POST', `/api/v1/server-agents/${shopAgent.agent_id}/heartbeat`, shopAgent.agent_token, {})).status).toBe(401);
    const again = await call('DELETE', `/api/v1/server-agents/${shopAgent.agent_id}`, kit.shopKey);
    expect(again.status).toBe(404);
    expect(await json(again)).toMatchObject({ error: { code: 'unknown_agent' } });
    expect((await call('DELETE', `/api/v1/server-agents/${installationAgent.agent_id}`, kit.installationKey)).status).toBe(204);
    expect((await config(installationAgent)).status).toBe(401);
  });

  test('the update manifest verifies with the published key, and fails for a changed file', async () => {
    writeFileSync(join(kit.updatesDir, 'sitebeacon-agent-1.2.0-linux-amd64.tar.gz'), gzipSync('old build'));
    const newest = gzipSync('newest build');
    writeFileSync(join(kit.updatesDir, 'sitebeacon-agent-1.10.0-linux-amd64.tar.gz'), newest);
    writeFileSync(join(kit.updatesDir, 'notes.txt'), 'not an artifact');
    const agent = await registerAgent();
    const manifest = (await json(await call('GET', '/api/v1/server-agents/updates/latest', agent.agent_token))) as UpdateManifest;
    expect(manifest).toMatchObject({ version: '1.10.0', arch: 'amd64', file: 'sitebeacon-agent-1.10.0-linux-amd64.tar.gz', size: newest.length, algorithm: 'ed25519' });
    expect(manifest.url).toBe('http://127.0.0.1:8787/downloads/agents/sitebeacon-agent-1.10.0-linux-amd64.tar.gz');
    const published = await json(await call('GET', '/api/v1/server-agents/updates/public-key', undefined));
    expect(published.key_id).toBe(manifest.key_id);

    const download = await kit.collector.request(new URL(manifest.url).pathname);
    expect(download.headers.get('content-length')).toBe(String(newest.length));
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(verifyManifest(manifest, published.public_key, bytes)).toBe(true);
    // A changed file, a changed manifest, or another key: refused.
    expect(verifyManifest(manifest, published.public_key, gzipSync('newest builD'))).toBe(false);
    expect(verifyManifest({ ...manifest, version: '9.9.9' }, published.public_key, bytes)).toBe(false);
    const stranger = createPublicKey(generateKeyPairSync('ed25519').privateKey).export({ type: 'spki', format: 'pem' }) as string;
    expect(verifyManifest(manifest, stranger, bytes)).toBe(false);
    // Only builds download: not other files of the folder, not paths outside it.
    expect((await kit.collector.request('/downloads/agents/notes.txt')).status).toBe(404);
    expect((await kit.collector.request('/downloads/agents/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    expect(readFileSync(join(kit.updatesDir, 'notes.txt'), 'utf8')).toBe('not an artifact');

    // A build replaced in place is hashed again: the next manifest signs the new bytes.
    const rebuilt = gzipSync('newest build, rebuilt');
    writeFileSync(join(kit.updatesDir, 'sitebeacon-agent-1.10.0-linux-amd64.tar.gz'), rebuilt);
    const next = (await json(await call('GET', '/api/v1/server-agents/updates/latest', agent.agent_token))) as UpdateManifest;
    expect(next.size).toBe(rebuilt.length);
    expect(verifyManifest(next, published.public_key, new Uint8Array(await (await kit.collector.request(new URL(next.url).pathname)).arrayBuffer()))).toBe(true);
  });

  test('a manifest offers only a real build of the architecture asked, by the agents\' own names for it (agent builds)', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46]), Buffer.from('arm64 binary')]);
    writeFileSync(join(kit.updatesDir, 'sitebeacon-agent-1.10.0-linux-amd64.tar.gz'), gzipSync('amd64'));
    writeFileSync(join(kit.updatesDir, 'sitebeacon-agent-1.11.0-linux-arm64'), elf);
    writeFileSync(join(kit.updatesDir, 'sitebeacon-agent-1.9.0-linux-arm64.tar.gz'), gzipSync('older arm64'));
    // Files that sit in the folder and look like builds, newer than any: never offered, never downloadable.
    writeFileSync(join(kit.updatesDir, 'checksums.txt'), 'abc  sitebeacon-agent-1.10.0-linux-amd64.tar.gz');
    writeFileSync(join(kit.updatesDir, 'sitebeacon-agent-9.9.9-checksums.txt'), 'abc');
    writeFileSync(join(kit.updatesDir, 'sitebeacon-agent-9.9.9-linux-amd64.tar.gz'), 'not gzip at all');
    writeFileSync(join(kit.updatesDir, 'sitebeacon-agent-9.9.9-linux-arm64'), '#!/bin/sh\nrm -rf /\n');
    writeFileSync(join(kit.updatesDir, 'sitebeacon-agent-9.9.9-linux-amd64.tar.gz.sig'), 'signature');
    const manifestFor = async (arch: string) => {
      const agent = await json(await call('POST', '/api/v1/server-agents/register', kit.installationKey, { hostname: 'h', os: 'linux', arch, agent_version: '1.0.0' }));
      return json(await call('GET', '/api/v1/server-agents/updates/latest', agent.agent_token));
    };
    expect(await manifestFor('x86_64')).toMatchObject({ arch: 'amd64', version: '1.10.0', file: 'sitebeacon-agent-1.10.0-linux-amd64.tar.gz' });
    expect(await manifestFor('amd64')).toMatchObject({ arch: 'amd64', version: '1.10.0' });
    expect(await manifestFor('aarch64')).toMatchObject({ arch: 'arm64', version: '1.11.0', file: 'sitebeacon-agent-1.11.0-linux-arm64' });
    // An operator's script names the architecture; an agent may name another than its own.
    expect(await json(await call('GET', '/api/v1/server-agents/updates/latest?arch=arm64', kit.installationKey))).toMatchObject({ arch: 'arm64', version: '1.11.0' });
    const missing = await call('GET', '/api/v1/server-agents/updates/latest', kit.installationKey);
    expect(missing.status).toBe(400);
    for (const arch of ['riscv64', 'constructor', 'armv7l']) {
      const response = await call('GET', `/api/v1/server-agents/updates/latest?arch=${arch}`, kit.installationKey);
      expect(response.status, arch).toBe(404);
    }
    for (const file of ['checksums.txt', 'sitebeacon-agent-9.9.9-checksums.txt', 'sitebeacon-agent-9.9.9-linux-amd64.tar.gz', 'sitebeacon-agent-9.9.9-linux-arm64', 'sitebeacon-agent-9.9.9-linux-amd64.tar.gz.sig']) {
      for (const method of ['GET', 'HEAD']) expect((await kit.collector.request(`/downloads/agents/${file}`, { method })).status, `${method} ${file}`).toBe(404);
    }
    const head = await kit.collector.request('/downloads/agents/sitebeacon-agent-1.11.0-linux-arm64', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-length')).toBe(String(elf.length));
    expect(await head.text()).toBe('');
  });

  test.each([
    ['register without a key', () => call('POST', '/api/v1/server-agents/register', undefined, { hostname: 'h', os: 'o', arch: 'a', agent_version: '1' }), 401, 'unauthorized'],
    ['register with a control character in the hostname', () => call('POST', '/api/v1/server-agents/register', kit.installationKey, { hostname: 'web\u001b[2J', os: 'o', arch: 'a', agent_version: '1' }), 400, 'invalid_request'],
    ['register without a hostname', () => call('POST', '/api/v1/server-agents/register', kit.installationKey, { os: 'o', arch: 'a', agent_version: '1' }), 400, 'invalid_request'],
    ['register for an unknown site', () => call('POST', '/api/v1/server-agents/register', kit.installationKey, { hostname: 'h', os: 'o', arch: 'a', agent_version: '1', site_key: 'nope' }), 404, 'unknown_site'],
    ['register for another site', () => call('POST', '/api/v1/server-agents/register', kit.shopKey, { hostname: 'h', os: 'o', arch: 'a', agent_version: '1', site_key: kit.blog }), 403, 'forbidden'],
    ['config without a token', () => call('GET', '/api/v1/server-agents/agt_0000000000000000/config', undefined), 401, 'unauthorized'],
    ['updates with no build published', () => call('GET', '/api/v1/server-agents/updates/latest?arch=x86_64', kit.installationKey), 404, 'not_found'],
    ['updates asked with an API key and no architecture', () => call('GET', '/api/v1/server-agents/updates/latest', kit.installationKey), 400, 'invalid_request'],
    ['updates without a key', () => call('GET', '/api/v1/server-agents/updates/latest', undefined), 401, 'unauthorized'],
  ] as Array<[string, () => Promise<Response>, number, string]>)('%s', async (_name, request, status, code) => {
    const response = await request();
    expect(response.status).toBe(status);
    expect(await json(response)).toMatchObject({ error: { code } });
  });
});
