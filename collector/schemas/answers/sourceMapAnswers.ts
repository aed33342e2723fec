import * as v from 'valibot';
import { CountSchema, IsoTimeSchema } from './isoTime';

// The source maps API's answers (docs/source-maps.md, "The API").

const debugId = v.pipe(v.nullable(v.string()), v.description("The map's debugId, lower-cased, or null"));

/** `POST .../sourcemaps`: the map stored. */
export const SourceMapStoredSchema = v.object({ release: v.string(), url: v.string(), debug_id: debugId });

/** `GET .../sourcemaps?release=R`: the release's maps, by URL. */
export const SourceMapListSchema = v.object({
  items: v.array(
    v.object({
      release: v.string(),
      url: v.string(),
      debug_id: debugId,
      size: v.pipe(CountSchema, v.description("The map text's length in characters")),
      uploaded_at: IsoTimeSchema,
    }),
  ),
});

/** `DELETE .../sourcemaps`: how many maps went. */
export const SourceMapDeletedSchema = v.object({ deleted: CountSchema });
