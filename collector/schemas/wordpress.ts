import * as v from 'valibot';
import { optionalBounded, optionalSingleLine } from './fields';

const version = optionalSingleLine(32);
const siteUrl = v.pipe(
  v.string(),
  v.maxLength(2048),
  v.url('site_url must be an absolute URL'),
  // valibot runs this check even after v.url failed: a string that is no URL must not throw here.
  v.check((url) => URL.canParse(url) && /^https?:$/.test(new URL(url).protocol), 'site_url must be http or https'),
);
/** A small JSON object (status, payload, result): at most 8 KiB. */
export const smallObject = v.optional(
  v.pipe(v.record(v.string(), v.unknown()), v.check((value) => JSON.stringify(value).length <= 8192, 'at most 8 KiB of JSON')),
);

/** `POST /api/v1/wordpress/register`. */
export const WordPressRegisterSchema = v.object({
  site_url: siteUrl,
  site_name: optionalSingleLine(200),
  plugin_version: version,
  wordpress_version: version,
  php_version: version,
});

/** `POST /api/v1/wordpress/check-in`. */
export const CheckInSchema = v.object({
  site_key: v.optional(v.string()),
  plugin_version: version,
  wordpress_version: version,
  php_version: version,
  status: smallObject,
});

/** `POST /api/v1/wordpress/action-results`. */
export const ActionResultsSchema = v.object({
  site_key: v.optional(v.string()),
  results: v.pipe(
    v.array(
      v.object({
        action_id: v.pipe(v.number(), v.integer(), v.minValue(1)),
        status: v.picklist(['succeeded', 'failed']),
        message: optionalBounded(2000),
        result: smallObject,
      }),
    ),
    v.minLength(1),
    v.maxLength(50),
  ),
});

/** An action for a site's plugin (`POST /api/v1/sites/{site_key}/actions`, `sitebeacon action add`). */
export const ActionSchema = v.object({
  type: v.pipe(v.string(), v.regex(/^[a-z][a-z0-9_.-]{0,63}$/, 'type is a lowercase name, like flush_cache')),
  payload: smallObject,
});
