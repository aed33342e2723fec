/** Properties a description visits at most: a rejected store state must not cost the page. */
const MAX_PROPERTIES = 100;

/**
 * What an instance of a class is described by: the fields that say what it is about (a
 * `Response`'s type, status and URL, an event's type and target, an element's `src`, an error
 * code), read by name. Walking a host object's own properties would call getters such as
 * `outerHTML` or `cookie`, and a window's would list every global.
 */
const TELLING = ['name', 'message', 'code', 'status', 'url', 'type', 'target', 'src'];

/**
 * Describes a thrown or rejected value that is not an `Error`, from the value itself, the same
 * way in every browser: a string as it is; a number, `null`, `undefined` by name; anything else as
 * bounded JSON, with `"[Circular]"` where an object would repeat, and each instance of a class as
 * its class's name over its telling fields. A promise rejected by `img.onerror = reject` becomes
 * `{"Event":{"type":"error","target":{"HTMLImageElement":{"src":"…"}}}}`; a failed fetch's
 * response `{"Response":{"type":"basic","url":"…","status":404}}`.
 *
 * @example
 * describeValue({ code: 42 }) // '{"code":42}'
 */
export const describeValue = (value: unknown): string => {
  const seen: unknown[] = [];
  let budget = MAX_PROPERTIES;
  let text;
  try {
    text =
      typeof value == 'object' &&
      JSON.stringify(value, (_key, field) => {
        // Past the bound, what is left is left out.
        if (--budget < 0) return;
        if (!field || typeof field != 'object') return field;
        if (seen.includes(field)) return '[Circular]';
        seen.push(field);
        const name = field.constructor?.name;
        if (!name || name == 'Object' || name == 'Array') return field;
        // Functions among the fields are left out by JSON itself.
        const told: Record<string, unknown> = {};
        for (const key of TELLING) if (field[key]) told[key] = field[key];
        return { [name]: told };
      });
  } catch {}
  // A string, a number, null; a getter that throws, a BigInt: the value's own text.
  return text || String(value);
};
