import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every pointer to a document of docs/ resolves: in src/ (comments), docs/ and README.md, a `docs/name.md` (and in
 * docs/ a relative `](name.md)` or `](#anchor)` link) names a file that exists; an `#anchor` after it matches one of
 * the file's headings by GitHub's slug rules; a section cited by name (`docs/api.md, "Rate limits"`) is one of its
 * headings or the bold title that opens a paragraph or a list item (`**Inbox search.**`, `- **A lead's page**`).
 */
const ROOT = path.resolve(import.meta.dirname, '..');
const DOCS = path.join(ROOT, 'docs');

function filesUnder(dir: string, ext: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full, ext) : entry.name.endsWith(ext) ? [full] : [];
  });
}

/** GitHub's heading anchor: lower case, punctuation dropped (letters, digits, `_`, `-` and spaces stay), spaces to `-`. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

interface Sections {
  /** Heading anchors, a repeated heading numbered the way GitHub does (`-1`, `-2`). */
  anchors: Set<string>;
  /** Slugs of the headings and of the bold titles that open a paragraph or a list item. */
  named: Set<string>;
}

function sectionsOf(markdown: string): Sections {
  const anchors = new Set<string>();
  const named = new Set<string>();
  const seen = new Map<string, number>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const base = slug(heading[1]!);
      const count = seen.get(base) ?? 0;
      seen.set(base, count + 1);
      anchors.add(count === 0 ? base : `${base}-${count}`);
      named.add(base);
    }
    const runIn = /^(?:[-*]\s+)?\*\*([^*]+)\*\*/.exec(line);
    if (runIn) named.add(slug(runIn[1]!));
  }
  return { anchors, named };
}

interface Citation {
  /** Where it was found, for the message. */
  at: string;
  /** The document, relative to the repository. */
  doc: string;
  anchor?: string;
  section?: string;
}

/** The pointers to docs/*.md in one file's text; `from` is the file's path relative to the repository. */
function citationsIn(text: string, from: string): Citation[] {
  const found: Citation[] = [];
  const lineOf = (index: number) => text.slice(0, index).split('\n').length;
  for (const m of text.matchAll(/\bdocs\/([\w-]+\.md)(?:#([\w-]+)|, "([^"]+)")?/g)) {
    // A section's name may run over a comment's line break: `"Possible\n * duplicate"`.
    const section = m[3]?.replace(/\s*\n\s*\*?\s*/g, ' ');
    found.push({
      at: `${from}:${lineOf(m.index)}`,
      doc: `docs/${m[1]}`,
      ...(m[2] ? { anchor: m[2] } : {}),
      ...(section ? { section } : {}),
    });
  }
  if (from.startsWith('docs/')) {
    for (const m of text.matchAll(/\]\(([\w-]+\.md)?(?:#([^)\s]+))?\)/g)) {
      if (!m[1] && !m[2]) continue;
      found.push({
        at: `${from}:${lineOf(m.index)}`,
        doc: m[1] ? `docs/${m[1]}` : from,
        ...(m[2] ? { anchor: m[2] } : {}),
      });
    }
  }
  return found;
}

function brokenCitations(citations: Citation[], readDoc: (doc: string) => string | undefined): string[] {
  const cache = new Map<string, Sections | undefined>();
  const sections = (doc: string) => {
    if (!cache.has(doc)) {
      const text = readDoc(doc);
      cache.set(doc, text === undefined ? undefined : sectionsOf(text));
    }
    return cache.get(doc);
  };
  return citations.flatMap((c) => {
    const doc = sections(c.doc);
    if (!doc) return [`${c.at}: ${c.doc} does not exist`];
    if (c.anchor !== undefined && !doc.anchors.has(c.anchor))
      return [`${c.at}: ${c.doc}#${c.anchor} matches no heading`];
    if (c.section !== undefined && !doc.named.has(slug(c.section)))
      return [`${c.at}: ${c.doc}, "${c.section}" is no section`];
    return [];
  });
}

const readDoc = (doc: string) => {
  const file = path.join(ROOT, doc);
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined;
};

describe('links to docs/', () => {
  const files = [
    ...filesUnder(path.join(ROOT, 'src'), '.ts'),
    ...filesUnder(DOCS, '.md'),
    path.join(ROOT, 'README.md'),
  ];
  const citations = files.flatMap((file) => citationsIn(fs.readFileSync(file, 'utf8'), path.relative(ROOT, file)));

  it('finds the links', () => {
    expect(citations.length).toBeGreaterThan(100);
    expect(citations.some((c) => c.anchor !== undefined)).toBe(true);
    expect(citations.some((c) => c.section !== undefined)).toBe(true);
  });

  it('every linked document exists, and every anchor and cited section is in it', () => {
    expect(brokenCitations(citations, readDoc)).toEqual([]);
  });

  it('slugs headings as GitHub does, and would see a broken link', () => {
    expect(slug('PostgreSQL intake: the ceiling')).toBe('postgresql-intake-the-ceiling');
    expect(slug("A source's form")).toBe('a-sources-form');
    expect(slug('`Idempotency-Key` and [retries](x.md)')).toBe('idempotency-key-and-retries');
    expect(slug('Accents: Gagné, 2 × 3')).toBe('accents-gagné-2--3');
    const doc =
      '# Title\n\n## Rate limits\n\n```sh\n# not a heading\n```\n\n## Rate limits\n\n**Inbox search.** Text.\n';
    expect([...sectionsOf(doc).anchors]).toEqual(['title', 'rate-limits', 'rate-limits-1']);
    const planted = citationsIn(
      [
        'see docs/api.md#rate-limits and docs/api.md#rate-limits-1, docs/api.md, "Inbox search", docs/api.md, "Rate limits"',
        'docs/api.md#not-a-heading; docs/api.md, "Not a section"; docs/gone.md',
      ].join('\n'),
      'src/x.ts',
    );
    expect(brokenCitations(planted, (d) => (d === 'docs/api.md' ? doc : undefined))).toEqual([
      'src/x.ts:2: docs/api.md#not-a-heading matches no heading',
      'src/x.ts:2: docs/api.md, "Not a section" is no section',
      'src/x.ts:2: docs/gone.md does not exist',
    ]);
    expect(citationsIn('[below](#rate-limits) and [API](api.md#errors)', 'docs/cli.md')).toEqual([
      { at: 'docs/cli.md:1', doc: 'docs/cli.md', anchor: 'rate-limits' },
      { at: 'docs/cli.md:1', doc: 'docs/api.md', anchor: 'errors' },
    ]);
  });
});
