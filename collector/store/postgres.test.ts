import { usePostgresDatabase } from '../testing/testDatabase';
import { createPostgresStore } from './postgres';
import { describeStoreContract } from './store.contract';

const database = usePostgresDatabase('contract');

describeStoreContract('PostgreSQL', async () => {
  const schema = await database.schema('contract');
  return {
    open: () => createPostgresStore({ url: schema.url }),
    destroy: () => schema.drop(),
  };
});
