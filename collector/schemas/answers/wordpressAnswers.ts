import * as v from 'valibot';
import { CountSchema, IsoTimeSchema } from './isoTime';
import { SetupUrlsSchema } from './setupUrls';

/** `POST /api/v1/wordpress/register`: the install's site key, the generated URLs, the plain tag and the features. */
export const WordPressRegistrationSchema = v.object({
  ...SetupUrlsSchema.entries,
  site_key: v.string(),
  site_url: v.string(),
  snippet: v.pipe(v.string(), v.description('The plain async script tag, without the early-capture stub (docs/early-capture.md)')),
  features: v.object({ connectivity_check: v.boolean(), actions: v.boolean(), csp_projects: v.boolean() }),
  check_in_interval: CountSchema,
});

/** `POST /api/v1/wordpress/check-in`: the pending actions and the next interval, in seconds. */
export const CheckInAnswerSchema = v.object({
  site_key: v.string(),
  actions: v.array(v.object({ id: v.pipe(v.number(), v.integer()), type: v.string(), payload: v.record(v.string(), v.unknown()), created_at: IsoTimeSchema })),
  next_check_in: CountSchema,
});

/** `POST /api/v1/wordpress/action-results`: how many results were taken. */
export const ActionResultsAnswerSchema = v.object({ recorded: CountSchema });

/** An action queued for a site's plugin (core/records.ts `SiteAction`). */
export const SiteActionSchema = v.object({
  id: v.pipe(v.number(), v.integer()),
  site_key: v.string(),
  type: v.string(),
  payload: v.optional(v.record(v.string(), v.unknown())),
  status: v.picklist(['pending', 'succeeded', 'failed']),
  message: v.optional(v.string()),
  result: v.optional(v.record(v.string(), v.unknown())),
  created_at: IsoTimeSchema,
  completed_at: v.optional(IsoTimeSchema),
});
