// Rate limits under a flood (docs/hostile-input.md, "Floods"), as properties of the two buckets with a simulated
// clock. Times are multiples of 125 ms and rates multiples of 8/s, so every refill is a whole
// number of tokens and no float rounding can flip a decision.
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { createRateGate } from './rateCheck';

const PER_IP = 8;
const PER_SITE = 64;
const SITE = 'site-a';

interface Request {
  /** In 125 ms steps from the start. */
  tick: number;
  ip: string;
}

/** Runs a schedule (sorted by time) through a fresh gate; answers each request's wait. */
const run = (schedule: Request[]) => {
  let now = 0;
  const admit = createRateGate({ perIp: PER_IP, perSite: PER_SITE }, () => now);
  return schedule.map(({ tick, ip }) => {
    now = tick * 125;
    return admit(ip, SITE);
  });
};

const flooder = '198.51.100.66';
/** Polite clients (each a few request times) and a flood (how many requests per tick, 12 to 120: 204 at least). */
const schedule = fc
  .record({
    polite: fc.array(fc.array(fc.integer({ min: 0, max: 16 }), { maxLength: 12 }), { minLength: 1, maxLength: 8 }),
    flood: fc.array(fc.integer({ min: 12, max: 120 }), { minLength: 17, maxLength: 17 }),
    shuffle: fc.integer({ min: 1, max: 9973 }),
  })
  .map(({ polite, flood, shuffle }) => {
    const requests: Request[] = [
      ...polite.flatMap((ticks, client) => ticks.map((tick) => ({ tick, ip: `203.0.113.${client + 1}` }))),
      ...flood.flatMap((count, tick) => Array.from({ length: count }, () => ({ tick, ip: flooder }))),
    ];
    // By time; within a tick, an interleaving drawn from `shuffle`.
    return requests
      .map((request, index) => ({ request, order: request.tick * 1e6 + ((index * shuffle) % 9973) }))
      .sort((a, b) => a.order - b.order)
      .map(({ request }) => request);
  });

test('a request the client bucket refuses takes nothing from the site: dropping those requests changes no other answer', () => {
  fc.assert(
    fc.property(schedule, (requests) => {
      const answers = run(requests);
      const refusedByClient = new Set<number>();
      // Which refusals were the client's own: replay the client buckets alone.
      let now = 0;
      const clientOnly = createRateGate({ perIp: PER_IP, perSite: 0 }, () => now);
      requests.forEach(({ tick, ip }, index) => {
        now = tick * 125;
        if (clientOnly(ip, SITE) > 0) refusedByClient.add(index);
      });
      const kept = requests.filter((_, index) => !refusedByClient.has(index));
      const answersWithout = run(kept);
      const answersKept = answers.filter((_, index) => !refusedByClient.has(index));
      const differing = answersKept.findIndex((wait, index) => wait !== answersWithout[index]);
      expect(differing, 'the first answer that changed').toBe(-1);
      // And each of those was refused in the full run too.
      expect([...refusedByClient].every((index) => answers[index]! > 0)).toBe(true);
    }),
    { seed: 20261123, numRuns: 100 },
  );
});

test('however hard one client floods, clients within their own burst are never refused while the site has room for them', () => {
  fc.assert(
    fc.property(schedule, (requests) => {
      const answers = run(requests);
      // Within one second (ticks 0..8 of 125 ms), the flooder is admitted at most its burst plus
      // its rate; the polite clients' requests fit in the site's burst beside that.
      const window = requests.map((request, index) => ({ ...request, wait: answers[index]! })).filter(({ tick }) => tick <= 8);
      const perClient = new Map<string, number>();
      for (const { ip } of window) perClient.set(ip, (perClient.get(ip) ?? 0) + 1);
      const politeInWindow = window.filter(({ ip }) => ip != flooder);
      const withinOwnBurst = politeInWindow.filter(({ ip }) => perClient.get(ip)! <= 2 * PER_IP);
      const politeTotal = politeInWindow.length;
      fc.pre(politeTotal + 2 * PER_IP + PER_IP <= 2 * PER_SITE);
      expect(withinOwnBurst.filter(({ wait }) => wait > 0)).toEqual([]);
      // The flooder itself is refused: a flood is at least 200 requests and its burst is 16.
      expect(answers.filter((wait, index) => requests[index]!.ip == flooder && wait > 0).length).toBeGreaterThan(0);
    }),
    { seed: 20261124, numRuns: 100 },
  );
});
