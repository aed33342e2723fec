import { test } from 'vitest';
import type { StoreContext } from './storeContext';

/**
 * vitest's `test` for the parts of the store contract, each test handed the fresh store, its seed
 * helpers and `reopen` as fixtures (`async ({ store, seed }) => …`), as Playwright's fixtures hand a
 * test its page. `current` is read as the test starts, after describeStoreContract's beforeEach has
 * opened that test's database, so no part keeps variables of its own to set before each test.
 *
 * @example
 * const test = storeTest(() => ({ store, seed, reopen }));
 * describeSitesContract(test); // test('…', async ({ store }) => { … })
 */
export const storeTest = (current: () => StoreContext) =>
  test.extend<StoreContext>({
    // vitest reads which fixtures a fixture needs from its first parameter's destructuring: none here.
    store: async ({}, use) => use(current().store),
    seed: async ({}, use) => use(current().seed),
    reopen: async ({}, use) => use(current().reopen),
  });

/** What each part of the store contract is given to declare its tests. */
export type StoreTest = ReturnType<typeof storeTest>;
