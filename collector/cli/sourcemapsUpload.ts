import { readFileSync } from 'node:fs';
import { defineCommand } from './defineCommand';
import { findSourceMaps } from './sourceMapFiles';

interface Outcome {
  map: string;
  url: string | null;
  status: 'uploaded' | 'skipped' | 'failed';
  debug_id: string | null;
  message?: string;
}

/** The collector's answer to one upload, as the CLI says it. */
const upload = async (endpoint: string, apiKey: string, body: { release: string; url: string; map: string }) => {
  const response = await fetch(endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as { debug_id?: string | null; error?: { code?: string; message?: string } };
  if (response.status == 201) return { ok: true as const, debug_id: answer.debug_id ?? null };
  return { ok: false as const, message: `${response.status} ${answer.error?.code ?? ''}: ${answer.error?.message ?? response.statusText}` };
};

/**
 * `sitebeacon sourcemaps upload --site SITE_KEY --release R [--url-prefix PREFIX] DIR`
 * (docs/source-maps.md, "The CLI"): every map under DIR that a script names, uploaded through a
 * running collector's `POST .../sourcemaps` with an API key of the site, as `check` talks to a
 * collector: the route checks and limits what is stored.
 */
export const sourcemapsUpload = defineCommand({
  name: ['sourcemaps', 'upload'],
  summary: "upload a build's source maps for a release to a collector",
  help:
    'uploads every `*.map` under DIR that a script under DIR names (`//# sourceMappingURL=`) to the collector, for the release; ' +
    'the URL is the prefix and the script\'s path under DIR; one line per map (`--json`: `{"map", "url", "status", "debug_id"}` a line); ' +
    'status 1 when an upload failed ([source maps](docs/source-maps.md))',
  args: [{ name: 'DIR', help: 'the build output: scripts and their maps' }],
  flags: {
    site: { type: 'string', value: 'SITE_KEY', required: true, help: 'the site the maps are for' },
    release: { type: 'string', value: 'R', required: true, help: "the release, as the beacon's `release` names it" },
    'url-prefix': { type: 'string', value: 'PREFIX', help: 'put before each script\'s path under DIR (default `~/`: any origin of the site)' },
    collector: { type: 'string', value: 'URL', required: true, env: 'SITEBEACON_COLLECTOR_URL', help: "the collector's URL, such as `https://beacon.shop.example`" },
    'api-key': { type: 'string', value: 'KEY', required: true, env: 'SITEBEACON_API_KEY', help: 'an API key of the site (`sitebeacon key create --site SITE_KEY`)' },
  },
  run: async ({ values, args }, io) => {
    const prefix = values['url-prefix'] ?? '~/';
    const endpoint = new URL(`/api/v1/sites/${encodeURIComponent(values.site!)}/sourcemaps`, values.collector!).toString();
    let failed = false;
    for (const found of findSourceMaps(args[0]!)) {
      const url = found.script === null ? null : `${prefix}${found.script}`;
      let outcome: Outcome;
      if (url === null) {
        outcome = { map: found.map, url, status: 'skipped', debug_id: null, message: 'no script under the directory names this map' };
      } else {
        const answer = await upload(endpoint, values['api-key']!, { release: values.release!, url, map: readFileSync(found.file, 'utf8') }).catch(
          (error: Error) => ({ ok: false as const, message: error.message }),
        );
        outcome = answer.ok
          ? { map: found.map, url, status: 'uploaded', debug_id: answer.debug_id }
          : { map: found.map, url, status: 'failed', debug_id: null, message: answer.message };
        failed ||= !answer.ok;
      }
      if (values.json) io.out(JSON.stringify(outcome));
      else io.out(`${outcome.status} ${found.map}${url ? ` as ${url}` : ''}${outcome.debug_id ? ` (debug ID ${outcome.debug_id})` : ''}${outcome.message ? `: ${outcome.message}` : ''}`);
    }
    return failed ? 1 : 0;
  },
});
