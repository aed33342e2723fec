import { afterEach, beforeEach, describe } from 'vitest';
import type { Store } from '../../store/contract';
import { seedStore } from '../seed';
import { describeAlertLogContract } from './alertLog.contract';
import { describeAlertsContract } from './alerts.contract';
import { describeCspReportsContract } from './cspReports.contract';
import { describeDashboardReadsContract } from './dashboardReads.contract';
import { describeErrorReportsContract } from './errorReports.contract';
import { describeHostileTextContract } from './hostileText.contract';
import { describeIntegrationsContract } from './integrations.contract';
import { describeIssueFastListContract } from './issueFastList.contract';
import { describeIssueListsContract } from './issueLists.contract';
import { describeIssuesContract } from './issues.contract';
import { describePerformanceSessionsContract } from './performanceSessions.contract';
import { describePeriodicAlertsContract } from './periodicAlerts.contract';
import { describeRetentionContract } from './retention.contract';
import { describeRevocationContract } from './revocation.contract';
import { describeRoutesContract } from './routes.contract';
import { describeSitesContract } from './sites.contract';
import { describeSourceMapsContract } from './sourceMaps.contract';
import { storeTest } from './storeTest';
import { describeUnknownSiteContract } from './unknownSite.contract';
import { describeUsersContract } from './users.contract';
import { describeVisitorsContract } from './visitors.contract';
import { describeVitalsByDeviceContract } from './vitalsByDevice.contract';

/**
 * What a store adapter is given to run the contract: a fresh, empty store, and the same database
 * opened again (what a restart or a second collector process sees).
 */
export interface StoreUnderTest {
  open(): Promise<Store>;
  /** Removes the database; called after each test, once its stores are closed. */
  destroy(): Promise<void>;
}

/**
 * The storage contract (store/contract.ts) as tests: every adapter passes this suite, and passing
 * it is what adding a store means. Each test gets a fresh database from `makeDatabase`.
 *
 * @example
 * describeStoreContract('SQLite', async () => { const file = tempFile(); return { open: async () => createSqliteStore({ file }), destroy: ... }; });
 */
export const describeStoreContract = (name: string, makeDatabase: () => Promise<StoreUnderTest>) =>
  describe(`store contract: ${name}`, () => {
    let database: StoreUnderTest;
    let store: Store;
    let seed: ReturnType<typeof seedStore>;
    const opened: Store[] = [];
    const reopen = async () => {
      const next = await database.open();
      opened.push(next);
      return next;
    };

    beforeEach(async () => {
      database = await makeDatabase();
      store = await reopen();
      seed = seedStore(store);
    });
    afterEach(async () => {
      for (const each of opened.splice(0)) await each.close().catch(() => {});
      await database.destroy();
    });

    // One file per concern of the storage contract (store/contract/), each test on a fresh store.
    const test = storeTest(() => ({ store, seed, reopen }));
    describeSitesContract(test);
    describeUsersContract(test);
    describeErrorReportsContract(test);
    describeCspReportsContract(test);
    describePerformanceSessionsContract(test);
    describeRetentionContract(test);
    describeHostileTextContract(test);
    describeDashboardReadsContract(test);
    describeVitalsByDeviceContract(test);
    describeRoutesContract(test);
    describeUnknownSiteContract(test);
    describeIntegrationsContract(test);
    describeRevocationContract(test);
    describeVisitorsContract(test);
    describeIssuesContract(test);
    describeIssueListsContract(test);
    describeIssueFastListContract(test);
    describeSourceMapsContract(test);
    describeAlertsContract(test);
    describePeriodicAlertsContract(test);
    describeAlertLogContract(test);
  });
