import * as v from 'valibot';

/**
 * The generated URLs of an installation (core/setupUrls.ts; spec section 1: clients use generated
 * setup URLs, never rewritten by hand). `legacy_api_base` is the main host's API base.
 */
export const SetupUrlsSchema = v.object({
  app_url: v.string(),
  ingest_url: v.string(),
  api_base: v.string(),
  legacy_api_base: v.string(),
  beacon_url: v.string(),
});
