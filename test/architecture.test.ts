import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The layers, as imports: `domain/` (what the product does) imports neither `http/` nor `web/` nor `cli/`;
 * `storage/` imports none of those nor `domain/` (`config.ts`, the parsed environment, is for everyone); `http/` does not import `web/` (pages sit on top of the HTTP
 * mapping, not under it); `jobs/` (the server's timers) imports only `domain/` and `storage/`, and only the server's
 * wiring (`server.ts`) imports `jobs/`; and no module imports itself back through others, type imports included.
 */
const SRC = path.resolve(import.meta.dirname, '../src');

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? sourceFiles(full) : entry.name.endsWith('.ts') ? [full] : [];
  });
}

/** Relative imports of a file (static, re-exports, side-effect and dynamic), resolved to files under src/. */
function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specifiers = [
    ...text.matchAll(/\b(?:import|export)\s[^'";]*?\bfrom\s+['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/\bimport\s+['"](\.[^'"]+)['"]/g),
    ...text.matchAll(/\bimport\(\s*['"](\.[^'"]+)['"]\s*\)/g),
  ].map((m) => m[1]!);
  return specifiers.map((s) => path.resolve(path.dirname(file), s.replace(/\.js$/, '.ts')));
}

/** The folder under src/; config.ts (the parsed environment, imported by every layer) is a layer of its own. */
const layerOf = (file: string) => {
  const [first] = path.relative(SRC, file).split(path.sep);
  if (first === 'config.ts') return 'config';
  return first!.endsWith('.ts') ? 'root' : first!;
};

const FORBIDDEN: Record<string, string[]> = {
  domain: ['http', 'web', 'cli', 'jobs', 'pdf', 'root'],
  storage: ['domain', 'http', 'web', 'cli', 'jobs', 'root'],
  http: ['web', 'cli', 'jobs'],
  web: ['jobs'],
  cli: ['jobs'],
  mail: ['jobs'],
  pdf: ['http', 'web', 'cli', 'jobs', 'storage', 'root'],
  jobs: ['http', 'web', 'cli', 'mail', 'pdf', 'root'],
};

/** The files outside `jobs/` that start the timers: the serving process's wiring, nothing else. */
const JOBS_WIRING = ['server.ts'];

function jobsImporters(graph: Map<string, string[]>): string[] {
  const importers = [...graph]
    .filter(([file, deps]) => layerOf(file) !== 'jobs' && deps.some((dep) => layerOf(dep) === 'jobs'))
    .map(([file]) => path.relative(SRC, file));
  return importers.filter((file) => !JOBS_WIRING.includes(file));
}

function layerViolations(graph: Map<string, string[]>): string[] {
  const found: string[] = [];
  for (const [file, deps] of graph) {
    for (const dep of deps) {
      if (FORBIDDEN[layerOf(file)]?.includes(layerOf(dep)))
        found.push(`${path.relative(SRC, file)} -> ${path.relative(SRC, dep)}`);
    }
  }
  return found;
}

/**
 * The domain's folders, lower first: a folder imports only folders before it here, and the domain's root files
 * (errors, ids, the context and its parts, names, lead-field bounds, roles), which import no folder. A folder missing
 * from the list fails the test: a new one takes its place in the order. `quotes` and `price-list` are on their way.
 */
const DOMAIN_ORDER = [
  // used by every area
  'server-instances',
  'audit',
  'idempotency',
  // a sent document's frozen model, its render job and its stored PDF (the emails attach it)
  'documents',
  'notifications',
  'backup',
  'auth',
  // a workspace and what leads arrive through
  'workspaces',
  'keys',
  'settings',
  'pipelines',
  'stages',
  'sources',
  'forms',
  'intake',
  'intake-log',
  // what arrives, and what is done with it
  'leads',
  'quarantine',
  'scans',
  // the people of a workspace
  'members',
  'users',
  'invitations',
  // the offer side
  'price-list',
  'quotes',
  // what an accepted quote becomes: invoices, payments and credit notes
  'invoices',
  // what follows a quote: reminders (follow-ups), and the report of what wins
  'follow-ups',
  'reports',
  // what spans every area above: a person's data, and what retention deletes
  'persons',
  'retention',
];

/** The one root file above every folder: the first start makes a workspace, its pipeline and source, the first owner. */
const DOMAIN_ROOT_ON_TOP = ['bootstrap.ts'];

function domainTreeViolations(graph: Map<string, string[]>, order: string[]): string[] {
  const domain = path.join(SRC, 'domain');
  /** The folder under domain/, '' for a root file, undefined outside domain/. */
  const folderOf = (file: string) => {
    if (layerOf(file) !== 'domain') return undefined;
    const parts = path.relative(domain, file).split(path.sep);
    return parts.length > 1 ? parts[0]! : '';
  };
  const found = new Set<string>();
  for (const [file, deps] of graph) {
    const from = folderOf(file);
    if (from === undefined) continue;
    if (from !== '' && !order.includes(from)) {
      found.add(`domain/${from}/ is not in DOMAIN_ORDER`);
      continue;
    }
    if (DOMAIN_ROOT_ON_TOP.includes(path.relative(domain, file))) continue;
    for (const dep of deps) {
      const to = folderOf(dep);
      if (to === undefined || to === '' || to === from) continue;
      if (from === '' || !order.includes(to) || order.indexOf(to) > order.indexOf(from)) {
        found.add(`${path.relative(SRC, file)} -> ${path.relative(SRC, dep)}`);
      }
    }
  }
  return [...found];
}

/** The HTTP routes map requests onto domain verbs: none of them imports storage/ (the domain's verbs do). */
function routesIntoStorage(graph: Map<string, string[]>): string[] {
  const routes = path.join(SRC, 'http', 'routes') + path.sep;
  return [...graph]
    .filter(([file]) => file.startsWith(routes))
    .flatMap(([file, deps]) =>
      deps
        .filter((dep) => layerOf(dep) === 'storage')
        .map((dep) => `${path.relative(SRC, file)} -> ${path.relative(SRC, dep)}`),
    );
}

/**
 * Where SQLite and PostgreSQL differ is storage's business (`ctx.store.ops`, storage/dialect-ops.ts): the domain
 * names neither backend, reads no `store.dialect` and imports no `Dialect`. Files that truly must are listed here.
 */
const DIALECT_NAMES = /['"`](?:postgres|sqlite)['"`]|\.dialect\b|storage\/dialect\.js/;
const DOMAIN_DIALECT_ALLOWED: string[] = [];

function dialectNamesInDomain(files: Map<string, string>): string[] {
  return [...files]
    .filter(([file]) => layerOf(file) === 'domain' && !DOMAIN_DIALECT_ALLOWED.includes(path.relative(SRC, file)))
    .flatMap(([file, text]) =>
      text
        .split('\n')
        .map((line, i) => [line, i + 1] as const)
        .filter(([line]) => DIALECT_NAMES.test(line))
        .map(([line, n]) => `${path.relative(SRC, file)}:${n}: ${line.trim()}`),
    );
}

function importCycles(graph: Map<string, string[]>): string[] {
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const cycles: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const dep of graph.get(file) ?? []) {
      if (!graph.has(dep)) continue;
      if (state.get(dep) === 'open')
        cycles.push([...stack.slice(stack.indexOf(dep)), dep].map((f) => path.relative(SRC, f)).join(' -> '));
      else if (!state.has(dep)) visit(dep);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

describe('architecture', () => {
  const graph = new Map(sourceFiles(SRC).map((file) => [file, importsOf(file)]));

  it('reads the whole tree', () => {
    expect(graph.size).toBeGreaterThan(150);
    expect(graph.get(path.join(SRC, 'app.ts'))!.length).toBeGreaterThan(5);
  });

  it('has no upward import: domain/ never imports http/, web/, cli/ or jobs/; storage/ never imports domain/; http/ never imports web/; jobs/ only domain/ and storage/', () => {
    expect(layerViolations(graph)).toEqual([]);
  });

  it('jobs/ holds timers: it imports domain/ and storage/, and only the server starts them', () => {
    expect(jobsImporters(graph)).toEqual([]);
  });

  it('has no import circle', () => {
    expect(importCycles(graph)).toEqual([]);
  });

  it('the domain folders form a one-way tree: each imports only folders below it in DOMAIN_ORDER', () => {
    expect(domainTreeViolations(graph, DOMAIN_ORDER)).toEqual([]);
  });

  it('idempotency is a wrapper: domain/idempotency/ imports no verb it wraps (the verbs import it, one way)', () => {
    const wrapper = path.join(SRC, 'domain', 'idempotency');
    const intoVerbs = [...graph]
      .filter(([file]) => file.startsWith(wrapper + path.sep))
      .flatMap(([file, deps]) =>
        deps
          .filter((dep) => {
            const [folder, ...rest] = path.relative(path.join(SRC, 'domain'), dep).split(path.sep);
            return layerOf(dep) === 'domain' && rest.length > 0 && folder !== 'idempotency';
          })
          .map((dep) => `${path.relative(SRC, file)} -> ${path.relative(SRC, dep)}`),
      );
    expect(intoVerbs).toEqual([]);
  });

  it('http/routes/ never imports storage/: a route goes through a domain verb', () => {
    expect(routesIntoStorage(graph)).toEqual([]);
  });

  it('the domain names no dialect: no backend name compared, no store.dialect, no Dialect import', () => {
    const texts = new Map([...graph.keys()].map((file) => [file, fs.readFileSync(file, 'utf8')]));
    expect(dialectNamesInDomain(texts)).toEqual([]);
  });

  it('would see a route importing storage and a dialect named in the domain', () => {
    const route = path.join(SRC, 'http/routes/r.ts');
    const store = path.join(SRC, 'storage/s.ts');
    expect(routesIntoStorage(new Map([[route, [store]]]))).toEqual(['http/routes/r.ts -> storage/s.ts']);
    const verb = path.join(SRC, 'domain/v.ts');
    expect(
      dialectNamesInDomain(new Map([[verb, "const a = 1;\nif (ctx.store.dialect === 'postgres') lock();"]])),
    ).toEqual(["domain/v.ts:2: if (ctx.store.dialect === 'postgres') lock();"]);
    expect(
      dialectNamesInDomain(new Map([[verb, "import type { Dialect } from '../../storage/dialect.js';"]])),
    ).toHaveLength(1);
    expect(
      dialectNamesInDomain(new Map([[verb, '// On SQLite the lock is a no-op; `leadscan-1.sqlite` is a file name.']])),
    ).toEqual([]);
  });

  it('would see a violation and a circle if there were one', () => {
    const a = path.join(SRC, 'domain/a.ts');
    const b = path.join(SRC, 'http/b.ts');
    const planted = new Map([
      [a, [b]],
      [b, [a]],
    ]);
    expect(layerViolations(planted)).toEqual(['domain/a.ts -> http/b.ts']);
    expect(importCycles(planted)).toEqual(['domain/a.ts -> http/b.ts -> domain/a.ts']);
    const timer = path.join(SRC, 'jobs/timer.ts');
    const page = path.join(SRC, 'web/page.ts');
    const withJobs = new Map([
      [timer, [path.join(SRC, 'web/html.ts')]],
      [page, [timer]],
    ]);
    expect(layerViolations(withJobs)).toEqual(['jobs/timer.ts -> web/html.ts', 'web/page.ts -> jobs/timer.ts']);
    expect(jobsImporters(withJobs)).toEqual(['web/page.ts']);
    const domainFile = (name: string) => path.join(SRC, 'domain', name);
    const tree = new Map([
      [domainFile('sources/create-source.ts'), [domainFile('pipelines/find-pipeline.ts'), domainFile('errors.ts')]],
      [domainFile('pipelines/create-pipeline.ts'), [domainFile('sources/source.ts')]],
      [domainFile('context.ts'), [domainFile('audit/actor.ts')]],
      [domainFile('bootstrap.ts'), [domainFile('users/first-owner.ts')]],
      [domainFile('gadgets/make-gadget.ts'), [domainFile('audit/record-audit.ts')]],
    ]);
    expect(domainTreeViolations(tree, ['audit', 'pipelines', 'sources', 'users'])).toEqual([
      'domain/pipelines/create-pipeline.ts -> domain/sources/source.ts',
      'domain/context.ts -> domain/audit/actor.ts',
      'domain/gadgets/ is not in DOMAIN_ORDER',
    ]);
  });
});
