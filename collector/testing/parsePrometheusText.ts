/**
 * A strict reader of the Prometheus text exposition format 0.0.4 (prometheus.io, "Exposition
 * formats", section "Text format details"), for tests: throws at the first line that is not a
 * `# HELP`, a `# TYPE` or a sample of a family typed before it, and at a text not ending with a
 * line feed.
 */

export interface ParsedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface ParsedExposition {
  /** Each family's HELP (unescaped) and TYPE. */
  families: Map<string, { help?: string; type?: string }>;
  samples: ParsedSample[];
}

const METRIC_NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

const parseValue = (text: string) => {
  if (text == '+Inf') return Infinity;
  if (text == '-Inf') return -Infinity;
  if (text == 'NaN') return NaN;
  if (!/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(text)) throw new Error(`not a value: ${JSON.stringify(text)}`);
  return Number(text);
};

/** `{a="x",b="y"}` at the start of `text`: the labels and the length read. */
const parseLabels = (text: string): [Record<string, string>, number] => {
  const labels: Record<string, string> = {};
  let at = 1;
  while (text[at] != '}') {
    const name = LABEL_NAME.exec(text.slice(at))?.[0];
    if (!name || text.slice(at + name.length, at + name.length + 2) != '="') throw new Error(`bad label at ${JSON.stringify(text.slice(at))}`);
    at += name.length + 2;
    let value = '';
    for (;;) {
      const char = text[at++];
      if (char === undefined || char == '\n') throw new Error('unterminated label value');
      if (char == '"') break;
      if (char == '\\') {
        const escaped = text[at++];
        if (escaped == 'n') value += '\n';
        else if (escaped == '\\' || escaped == '"') value += escaped;
        else throw new Error(`bad escape \\${escaped}`);
      } else value += char;
    }
    if (name in labels) throw new Error(`label ${name} twice`);
    labels[name] = value;
    if (text[at] == ',') at++;
    else if (text[at] != '}') throw new Error(`expected , or } at ${JSON.stringify(text.slice(at))}`);
  }
  return [labels, at + 1];
};

/** The family a sample line belongs to: its own name, or a histogram's or summary's base name. */
const familyOf = (name: string, families: ParsedExposition['families']) => {
  if (families.get(name)?.type) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  const type = families.get(base)?.type;
  return type == 'histogram' || type == 'summary' ? base : undefined;
};

/**
 * Parses an exposition, or throws saying which line is wrong.
 *
 * @example
 * parsePrometheusText('# TYPE up gauge\nup 1\n').samples; // [{ name: 'up', labels: {}, value: 1 }]
 */
export const parsePrometheusText = (text: string): ParsedExposition => {
  if (text.length && !text.endsWith('\n')) throw new Error('the last line does not end with a line feed');
  const families: ParsedExposition['families'] = new Map();
  const samples: ParsedSample[] = [];
  for (const [index, line] of text.split('\n').slice(0, -1).entries()) {
    try {
      const comment = /^# (HELP|TYPE) ([^ ]+) (.*)$/.exec(line);
      if (comment) {
        const [, keyword, name, rest] = comment as unknown as [string, string, string, string];
        if (!METRIC_NAME.test(name) || METRIC_NAME.exec(name)![0] != name) throw new Error(`bad metric name ${name}`);
        const family = families.get(name) ?? {};
        if (keyword == 'TYPE') {
          if (!TYPES.has(rest) || family.type) throw new Error(`bad or repeated TYPE ${rest}`);
          if (samples.some((sample) => familyOf(sample.name, families) == name)) throw new Error('TYPE after samples');
          family.type = rest;
        } else {
          if (family.help !== undefined) throw new Error('repeated HELP');
          family.help = rest.replace(/\\(n|\\)/g, (_, escaped: string) => (escaped == 'n' ? '\n' : '\\'));
        }
        families.set(name, family);
        continue;
      }
      if (line.startsWith('#') || line.trim() == '') throw new Error('a comment or blank line this writer never makes');
      const name = METRIC_NAME.exec(line)?.[0];
      if (!name) throw new Error('no metric name');
      let at = name.length;
      let labels: Record<string, string> = {};
      if (line[at] == '{') {
        const [parsed, length] = parseLabels(line.slice(at));
        labels = parsed;
        at += length;
      }
      const [value, timestamp, ...extra] = line.slice(at).trimStart().split(' ');
      if (line[at] != ' ' || value === undefined || extra.length || (timestamp !== undefined && !/^-?\d+$/.test(timestamp))) {
        throw new Error('expected " value [timestamp]"');
      }
      if (!familyOf(name, families)) throw new Error(`sample of ${name} before its TYPE`);
      samples.push({ name, labels, value: parseValue(value) });
    } catch (error) {
      throw new Error(`line ${index + 1} ${JSON.stringify(line)}: ${(error as Error).message}`);
    }
  }
  return { families, samples };
};

/**
 * The value of the one sample named `name` whose labels include `labels`; undefined when none.
 *
 * @example
 * sampleValue(parsed, 'sitebeacon_ingest_requests_total', { kind: 'error', status: '202' }); // 3
 */
export const sampleValue = (parsed: ParsedExposition, name: string, labels: Record<string, string> = {}) => {
  const found = parsed.samples.filter(
    (sample) => sample.name == name && Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
  );
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value;
};
