import type { Store } from '../../store/contract';
import type { seedStore } from '../seed';

/**
 * What each part of the store contract is handed before each of its tests: the fresh store, its
 * seed helpers, and a way to open the same database again (a restart or a second process).
 *
 * @example
 * const test = storeTest((): StoreContext => ({ store, seed, reopen }));
 */
export interface StoreContext {
  store: Store;
  seed: ReturnType<typeof seedStore>;
  reopen: () => Promise<Store>;
}
