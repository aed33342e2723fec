import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

// `sitebeacon/collector` ships types (and so do the beacon's entries). A consumer project resolves the package through its
// "exports" (run after `npm run build`, as `npm test` does) and type-checks against them: a wrong
// call must fail to compile, a right one compile.
const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = join(root, 'node_modules/typescript/bin/tsc');

const typecheck = (source: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'sitebeacon-types-'));
  try {
    mkdirSync(join(dir, 'node_modules'));
    symlinkSync(root, join(dir, 'node_modules/sitebeacon'));
    symlinkSync(join(root, 'node_modules/@types'), join(dir, 'node_modules/@types'));
    writeFileSync(join(dir, 'app.ts'), source);
    const config = { compilerOptions: { strict: true, module: 'nodenext', moduleResolution: 'nodenext', noEmit: true, skipLibCheck: true, types: ['node'] }, files: ['app.ts'] };
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(config));
    writeFileSync(join(dir, 'package.json'), '{"type":"module"}');
    execFileSync(process.execPath, [tsc, '-p', dir], { encoding: 'utf8' });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

test('sitebeacon and sitebeacon/attribution export their types to a consumer project', { timeout: 60_000 }, () => {
  expect(
    typecheck(`import { init, errors, csp, type BeaconOptions } from 'sitebeacon';
import { vitals } from 'sitebeacon/attribution';
const options: BeaconOptions = { siteKey: 'k', ingestOrigin: 'https://in.example', capture: [errors(), csp(), vitals()] };
init(options).captureError(new Error('x'));
`),
  ).toBe('');
  expect(typecheck(`import { init } from 'sitebeacon';\ninit({ siteKey: 42 });\n`)).toMatch(/TS2322/);
});

test('sitebeacon/collector exports its types to a consumer project', { timeout: 60_000 }, () => {
  const good = `import { createCollector, openStore, type Store, type Site } from 'sitebeacon/collector';
const store: Store = await openStore(':memory:');
const site: Site | undefined = await store.sites.get('default');
createCollector({ store, beaconFile: 'beacon.min.js', links: { appUrl: () => 'http://127.0.0.1:8787' } });
export { site };
`;
  expect(typecheck(good)).toBe('');
  expect(typecheck(`import { openStore } from 'sitebeacon/collector';\nconst store = await openStore(':memory:');\nstore.sites.get(42);\n`)).toMatch(
    /TS2345/,
  );
});
