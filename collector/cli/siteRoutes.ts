import { MAX_PATTERNS, parseRoutePattern } from '../core/routes';
import { databaseLocation, UsageError, withStore } from './args';
import { DATABASE_FLAGS } from './commonFlags';
import { defineCommand } from './defineCommand';

/**
 * `sitebeacon site routes --site SITE_KEY [--add PATTERN | --remove PATTERN | --list]`: the site's
 * route patterns (docs/vitals.md, "Routes"), which group its pages' URLs before the default rules
 * (ids as `:id`). A pattern is checked as any input (core/routes.ts parseRoutePattern): bounded in
 * length, segments and number, refused with what is wrong. It applies to the sessions received
 * from then on (a running collector reads a site's patterns again within 5 s).
 */
export const siteRoutes = defineCommand({
  name: ['site', 'routes'],
  summary: "list, add or remove a site's route patterns (`/blog/:slug`)",
  help:
    "the site's route patterns, in the order they are matched: a page URL's path that matches one is grouped under it (`/blog/:slug`: any one segment; `/docs/*`: the rest of the path), " +
    `before the default rules (ids, UUIDs, long hex or digit segments as \`:id\`); at most ${MAX_PATTERNS} per site, each at most 200 characters and 32 segments. ` +
    'Applies to the sessions received from then on. With no action, lists them (`--json`: `{"site_key", "patterns"}`, with `added` or `removed`)',
  flags: {
    site: { type: 'string', required: true, value: 'SITE_KEY', help: 'the site' },
    add: { type: 'string', value: 'PATTERN', help: 'adds the pattern last (`/blog/:slug`)' },
    remove: { type: 'string', value: 'PATTERN', help: 'removes the pattern' },
    list: { type: 'boolean', help: 'lists the patterns (what the command does without `--add` or `--remove`)' },
    ...DATABASE_FLAGS,
  },
  run: async ({ values }, io) => {
    const siteKey = values.site!;
    const actions = [values.add !== undefined, values.remove !== undefined, values.list].filter(Boolean).length;
    if (actions > 1) throw new UsageError('give one of --add, --remove and --list');
    const parsed = values.add === undefined ? undefined : parseRoutePattern(values.add);
    if (parsed && 'error' in parsed) throw new UsageError(`--add: ${parsed.error}`);
    const pattern = parsed?.pattern.text;
    const readOnly = pattern === undefined && values.remove === undefined;
    const { added, removed, patterns } = await withStore(
      databaseLocation(values, io),
      async (store) => {
        if (!(await store.sites.get(siteKey))) throw new Error(`no site has the key "${siteKey}"`);
        const added = pattern === undefined ? undefined : await store.routes.add(siteKey, pattern, MAX_PATTERNS);
        const removed = values.remove === undefined ? undefined : await store.routes.remove(siteKey, values.remove);
        return { added, removed, patterns: await store.routes.list(siteKey) };
      },
      { readOnly },
    );
    if (added == 'full') throw new Error(`site ${siteKey} has ${MAX_PATTERNS} route patterns, as many as a site may: remove one first`);
    if (removed === false) {
      io.err(`sitebeacon: site ${siteKey} has no route pattern ${JSON.stringify(values.remove)}`);
      return 1;
    }
    if (values.json) {
      io.out(JSON.stringify({ site_key: siteKey, ...(pattern !== undefined ? { added: pattern } : {}), ...(removed ? { removed: values.remove } : {}), patterns }));
      return;
    }
    if (added == 'added') io.out(`Added route pattern ${pattern} to site ${siteKey}: sessions received from now on are grouped by it.`);
    if (added == 'exists') io.out(`Site ${siteKey} already has route pattern ${pattern}.`);
    if (removed) io.out(`Removed route pattern ${values.remove} of site ${siteKey}.`);
    if (readOnly) io.out(patterns.length ? patterns.join('\n') : `Site ${siteKey} has no route patterns: page URLs are grouped by the default rules.`);
  },
});
