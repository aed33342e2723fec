// Prints the beacon's size figures and fails above the CI gates (issue 3). Deterministic:
// the same build gives the same bytes. Run after `npm run build`: node scripts/size.mjs [--json] [--print 0|1]
import { readFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { rollup } from 'rollup';
import nodeResolve from '@rollup/plugin-node-resolve';
import terser from '@rollup/plugin-terser';

const root = new URL('..', import.meta.url);

const measure = (code) => {
  const bytes = Buffer.from(code);
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }).length,
  };
};

/** An app that imports only `init`, `errors` and `csp` from the published ESM build, bundled and minified. */
const bundleApp = async (source) => {
  const entry = '\0app';
  const bundle = await rollup({
    input: entry,
    plugins: [
      {
        name: 'app',
        resolveId: (id) => (id === entry ? entry : id === 'sitebeacon' ? new URL('dist/beacon.mjs', root).pathname : null),
        load: (id) => (id === entry ? source : null),
      },
      nodeResolve(),
    ],
    onwarn: () => {},
  });
    // The app's own minifier with its defaults: no property mangling beyond what the package ships.
  const { output } = await bundle.generate({ format: 'es', plugins: [terser()] });
  return output[0].code;
};

const targets = [
  {
    name: 'dist/beacon.min.js (errors + csp + vitals + transport + script tag)',
    code: readFileSync(new URL('dist/beacon.min.js', root), 'utf8'),
    goal: { brotli: 4096, gzip: 4608 },
    gate: { brotli: 5120 },
  },
  {
    name: 'ESM app importing init, errors, csp',
    code: await bundleApp(
      "import { init, errors, csp } from 'sitebeacon';\ninit({ siteKey: 'k', ingestOrigin: 'https://in.example', capture: [errors(), csp()] });\n",
    ),
    goal: { brotli: 1536 },
    gate: { brotli: 2048 },
    mustNotContain: ['largest-contentful-paint', 'layout-shift', 'first-input'],
  },
];

let failed = false;
const results = [];
for (const target of targets) {
  const size = measure(target.code);
  results.push({ name: target.name, ...size, goal: target.goal, gate: target.gate });
  const against = (kind) =>
    `${size[kind]} B ${kind}` +
    (target.goal[kind] ? ` (goal ${target.goal[kind]}${size[kind] <= target.goal[kind] ? ' met' : ' missed'}` : '') +
    (target.gate?.[kind] ? `, gate ${target.gate[kind]}` : '') +
    (target.goal[kind] ? ')' : '');
  if (!process.argv.includes('--json')) {
    console.log(`${target.name}\n  ${size.raw} B raw, ${against('gzip')}, ${against('brotli')}`);
  }
  for (const [kind, limit] of Object.entries(target.gate)) {
    if (size[kind] > limit) {
      console.error(`  FAIL: ${kind} ${size[kind]} B is above the gate of ${limit} B`);
      failed = true;
    }
  }
  for (const marker of target.mustNotContain || []) {
    if (target.code.includes(marker)) {
      console.error(`  FAIL: contains "${marker}": web-vitals code leaked into a bundle that does not import vitals`);
      failed = true;
    }
  }
}
if (process.argv.includes('--json')) console.log(JSON.stringify(results, null, 2));
// --print N shows the code of target N, to see where the bytes go.
const print = process.argv.indexOf('--print');
if (print > 0) console.log(targets[Number(process.argv[print + 1])].code);
process.exit(failed ? 1 : 0);
