const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** `"debugId": "…"` (the proposal's name; Sentry's tools wrote `debug_id`). A JSON string holds no bare `"`, so this is a key. */
const FIELD = /"debug_?[iI]d"\s*:\s*"([^"\\]{0,64})"/;

/**
 * The debug ID a source map's text names, lower-cased, or null (none, or not a UUID): what a map is
 * found by when a report names its script's debug ID (docs/source-maps.md, "Pairing a script with
 * its map"). One linear search, without parsing the text again.
 *
 * @example
 * mapDebugId('{"version":3,"debugId":"0AE942FD-A409-4FC6-A82C-91EB9FCBBF72",…}'); // '0ae942fd-a409-4fc6-a82c-91eb9fcbbf72'
 */
export const mapDebugId = (text: string): string | null => {
  const id = FIELD.exec(text)?.[1]?.toLowerCase();
  return id !== undefined && UUID.test(id) ? id : null;
};
