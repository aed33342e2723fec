import { expect, test } from 'vitest';
import { StoreUnavailableError } from '../storeUnavailableError';
import { isConnectionFault, withConnectionFaults } from './connectionFault';
import type { Store } from '../contract';

const coded = (message: string, code: string) => Object.assign(new Error(message), { code });

test('a database that is gone, restarting or ending the backend is a connection fault', () => {
  expect(isConnectionFault(coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
  expect(isConnectionFault(coded('read ECONNRESET', 'ECONNRESET'))).toBe(true);
  expect(isConnectionFault(coded('terminating connection due to administrator command', '57P01'))).toBe(true);
  expect(isConnectionFault(coded('the database system is starting up', '57P03'))).toBe(true);
  expect(isConnectionFault(coded('connection failure', '08006'))).toBe(true);
  expect(isConnectionFault(coded('sorry, too many clients already', '53300'))).toBe(true);
  expect(isConnectionFault(new Error('Connection terminated unexpectedly'))).toBe(true);
  expect(isConnectionFault(new Error('Client has encountered a connection error and is not queryable'))).toBe(true);
  expect(isConnectionFault(new Error('timeout exceeded when trying to connect'))).toBe(true);
  expect(isConnectionFault(new AggregateError([coded('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')]))).toBe(true);
});

test('a wrong statement, a constraint, a deadlock or a bug is not', () => {
  expect(isConnectionFault(coded('syntax error at or near "SELEC"', '42601'))).toBe(false);
  expect(isConnectionFault(coded('violates foreign key constraint', '23503'))).toBe(false);
  expect(isConnectionFault(coded('deadlock detected', '40P01'))).toBe(false);
  expect(isConnectionFault(new TypeError("Cannot read properties of undefined (reading 'x')"))).toBe(false);
  expect(isConnectionFault('ECONNREFUSED')).toBe(false);
});

test('a store call that fails on a connection fault rejects with StoreUnavailableError; other failures pass as they are', async () => {
  const refused = coded('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED');
  const wrong = coded('syntax error', '42601');
  const store = withConnectionFaults({
    sites: { get: async () => Promise.reject(refused), list: async () => Promise.reject(wrong) },
    checkWritable: async () => Promise.reject(refused),
    close: async () => {},
  } as unknown as Store);
  const unavailable = await store.sites.get('x').catch((error: unknown) => error);
  expect(unavailable).toBeInstanceOf(StoreUnavailableError);
  expect((unavailable as Error).cause).toBe(refused);
  await expect(store.sites.list()).rejects.toBe(wrong);
  await expect(store.checkWritable()).rejects.toBeInstanceOf(StoreUnavailableError);
});
