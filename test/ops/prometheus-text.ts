/**
 * A strict reader of the Prometheus text exposition format 0.0.4, enough to refuse what a scraper would refuse:
 * every line is a HELP, a TYPE or a sample; every sample belongs to a family with a TYPE; label values are quoted
 * with the three escapes; values are floats (or Inf/NaN).
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: (-?\\d+))?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\["\\n])*)"(,|$)/;
const TYPES = new Set(['counter', 'gauge', 'histogram', 'summary', 'untyped']);

export function parsePrometheusText(text: string): Sample[] {
  const types = new Map<string, string>();
  const samples: Sample[] = [];
  for (const [i, line] of text.split('\n').entries()) {
    if (line === '') continue;
    const where = `line ${i + 1}: ${line}`;
    if (line.startsWith('# HELP ')) {
      if (!new RegExp(`^# HELP ${NAME} `).test(line)) throw new Error(`bad HELP, ${where}`);
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [, , name, type] = line.split(' ');
      if (!name || !new RegExp(`^${NAME}$`).test(name) || !type || !TYPES.has(type))
        throw new Error(`bad TYPE, ${where}`);
      if (types.has(name)) throw new Error(`TYPE given twice, ${where}`);
      types.set(name, type);
      continue;
    }
    if (line.startsWith('#')) continue;
    const match = SAMPLE.exec(line);
    if (!match) throw new Error(`not a sample, ${where}`);
    const [, name, labelText, valueText] = match as unknown as [string, string, string | undefined, string];
    const family = [name, name.replace(/_(bucket|sum|count|total|created)$/, '')].find((n) => types.has(n));
    if (!family) throw new Error(`sample without TYPE, ${where}`);
    const labels: Record<string, string> = {};
    let rest = labelText ?? '';
    while (rest !== '') {
      const label = LABEL.exec(rest);
      if (!label) throw new Error(`bad labels, ${where}`);
      labels[label[1]!] = label[2]!.replace(/\\(["\\n])/g, (_m, c: string) => (c === 'n' ? '\n' : c));
      rest = rest.slice(label[0].length);
    }
    // Prometheus reads values with Go's ParseFloat: NaN and Inf in any letter case (prom-client writes "Nan").
    const special: Record<string, number> = { nan: NaN, '+inf': Infinity, inf: Infinity, '-inf': -Infinity };
    const lower = valueText.toLowerCase();
    const value = lower in special ? special[lower]! : Number(valueText);
    if (Number.isNaN(value) && lower !== 'nan') throw new Error(`bad value, ${where}`);
    samples.push({ name, labels, value });
  }
  return samples;
}

/** The value of one sample, 0 when absent (a counter that never moved is not printed with its labels). */
export function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  return found?.value ?? 0;
}
