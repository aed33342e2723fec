/**
 * Cursors are opaque to clients (the read API's `next_cursor`): what one holds is the store's
 * business. Both adapters page by a row id, written as base64url so it is not mistaken for one.
 */
export const encodeCursor = (id: number) => Buffer.from(`id:${id}`).toString('base64url');

/**
 * The row id of a cursor this store made, or undefined for anything else.
 *
 * @example
 * decodeCursor(encodeCursor(42)) // 42
 */
export const decodeCursor = (cursor: string): number | undefined => {
  const match = /^id:(\d{1,15})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  return match ? Number(match[1]) : undefined;
};

/**
 * A cursor after a row of a list sorted by a number, ties broken by a text id (the issues' list:
 * by last seen, occurrences... then fingerprint; their events: by time, then row id).
 *
 * @example
 * decodeKeyCursor(encodeKeyCursor(1767225600000, '3f2a9c')) // { key: 1767225600000, id: '3f2a9c' }
 */
export const encodeKeyCursor = (key: number, id: string | number) => Buffer.from(`key:${key}:${id}`).toString('base64url');

/** The sort key and id of a cursor encodeKeyCursor made, or undefined for anything else. */
export const decodeKeyCursor = (cursor: string): { key: number; id: string } | undefined => {
  const match = /^key:(-?\d{1,16}):([\w.-]{1,128})$/.exec(Buffer.from(cursor, 'base64url').toString('latin1'));
  return match ? { key: Number(match[1]), id: match[2]! } : undefined;
};
