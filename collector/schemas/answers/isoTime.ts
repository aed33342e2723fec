import * as v from 'valibot';

/** A time as the read API writes every time: an ISO 8601 string (core/records.ts). */
export const IsoTimeSchema = v.pipe(v.string(), v.isoTimestamp());

/** An integer count. */
export const CountSchema = v.pipe(v.number(), v.integer(), v.minValue(0));

/** A UTC day, `YYYY-MM-DD` (core/dailySeries.ts). */
export const DaySchema = v.pipe(v.string(), v.isoDate());
