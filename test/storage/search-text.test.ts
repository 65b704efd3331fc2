import { describe, expect, it } from 'vitest';
import {
  documentMatches,
  documentParts,
  foldText,
  leadMatches,
  searchDocument,
  searchLikePatterns,
  searchQuery,
  type SearchableLead,
} from '../../src/storage/search-text.js';

// The one definition of a search match (storage/search-text.ts), which SQLite's candidate check, PostgreSQL's
// stored search document and these tests share.
describe('search text', () => {
  const lead = (fields: Partial<SearchableLead>): SearchableLead => ({
    name: null,
    email: null,
    phone: null,
    notes: null,
    extra: null,
    ...fields,
  });

  it('folds accents and case, in the text and in the search alike', () => {
    expect(foldText('Gagné')).toBe('gagne');
    expect(foldText('GAGNÉ')).toBe('gagne');
    expect(foldText('Zoë Ærø İstanbul ÇA')).toBe('zoe ærø istanbul ca');
    // Decomposed and precomposed forms fold the same.
    expect(foldText('e\u0301')).toBe(foldText('\u00e9'));
  });

  it('takes a search of digits and phone signs with 3 digits or more as a phone search too', () => {
    expect(searchQuery('5550199')).toEqual({ text: '5550199', digits: '5550199' });
    expect(searchQuery('514 555')).toEqual({ text: '514 555', digits: '514555' });
    expect(searchQuery('+1 (514) 555-01.99')).toEqual({ text: '+1 (514) 555-01.99', digits: '15145550199' });
    expect(searchQuery('15')).toEqual({ text: '15', digits: null });
    expect(searchQuery('1-5')).toEqual({ text: '1-5', digits: null });
    expect(searchQuery('gagne 0199')).toEqual({ text: 'gagne 0199', digits: null });
    expect(searchQuery('GAGNÉ')).toEqual({ text: 'gagne', digits: null });
  });

  it('matches a phrase inside one field, or the digits inside the phone', () => {
    const gagne = lead({ name: 'Gagné Rénovations', phone: '+1 514-555-0199', notes: 'Cuisine\nsalle de bain' });
    for (const search of ['gagne', 'GAGNÉ', 'rénovations', '5550199', '514 555', '514-555', 'cuisine', 'salle de']) {
      expect(leadMatches(gagne, searchQuery(search)), search).toBe(true);
    }
    for (const search of ['gagnon', '5550198', 'gagne 0199', 'rénovations +1', 'cuisine salle', '15']) {
      expect(leadMatches(gagne, searchQuery(search)), search).toBe(false);
    }
    // Digits in another field are found as text only.
    expect(leadMatches(lead({ notes: 'ref 514 555' }), searchQuery('514555'))).toBe(false);
    expect(leadMatches(lead({ notes: 'ref 514 555' }), searchQuery('514 555'))).toBe(true);
  });

  it("a field holding the document's separators (combining marks) cannot move text into the phone's digits", () => {
    const tricky = lead({ name: 'x\u0300\u0301', phone: '555', notes: '\u0301123' });
    const document = searchDocument(tricky);
    expect(documentParts(document)).toEqual({ digits: '555', text: 'x\u0302\u0302555\u0302123' });
    expect(documentMatches(document, searchQuery('123'))).toBe(true);
    expect(documentMatches(document, searchQuery('x555'))).toBe(false);
    expect(documentMatches(document, searchQuery('5551'))).toBe(false);
  });

  it('gives LIKE patterns that hold exactly when the document matches', () => {
    /** LIKE with `\` as its escape, as PostgreSQL reads it, through a regular expression. */
    const like = (pattern: string, text: string) => {
      const literal = (c: string) => c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      let source = '';
      for (let i = 0; i < pattern.length; i++) {
        const c = pattern[i]!;
        if (c === '\\') source += literal(pattern[++i]!);
        else if (c === '%') source += '[\\s\\S]*';
        else if (c === '_') source += '[\\s\\S]';
        else source += literal(c);
      }
      return new RegExp(`^${source}$`, 'u').test(text);
    };
    const leads = [
      lead({ name: 'Gagné', phone: '+1 514-555-0199' }),
      lead({ name: '100% réel_', notes: 'a\\b', phone: '12' }),
      lead({ email: 'x@example.com', notes: '5550199' }),
    ];
    const searches = ['gagne', '5550199', '514 555', '%', '_', 'a\\b', '100% r', '12', 'example.com', '0199', 'zzz'];
    for (const l of leads) {
      const document = searchDocument(l);
      for (const search of searches) {
        const query = searchQuery(search);
        const patterns = searchLikePatterns(query);
        const byLike = like(patterns.text, document) || (patterns.digits !== null && like(patterns.digits, document));
        expect(byLike, `${search} in ${JSON.stringify(l)}`).toBe(documentMatches(document, query));
      }
    }
  });
});
