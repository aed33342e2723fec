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
