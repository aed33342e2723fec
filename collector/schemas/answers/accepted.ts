import * as v from 'valibot';

/**
 * The 202 of every accepted submission (README, "Endpoints": `{"status":"accepted","accepted":N}`).
 * CSP submissions add `merged` (further copies of a violation already stored) and `foreign`
 * (`Origin: null` reports of another origin's document, not stored).
 */
export const AcceptedSchema = v.object({
  status: v.literal('accepted'),
  accepted: v.pipe(v.number(), v.integer()),
  merged: v.optional(v.pipe(v.number(), v.integer())),
  foreign: v.optional(v.pipe(v.number(), v.integer())),
});
