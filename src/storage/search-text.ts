/**
 * What inbox search compares, on both databases (docs/admin-app.md, Search): the one definition of "this lead matches
 * this search", used to check SQLite's index candidates, to build PostgreSQL's `leads.search_text` (migration 0018)
 * and by the tests.
 *
 * - Text is folded: Unicode NFD, combining marks removed, lower case. `gagne`, `GAGNÉ` and `Gagné` are all `gagne`.
 * - A search is one piece of text, as typed (trimmed): it matches a lead whose folded name, email, phone or notes,
 *   or one of its extra fields' values (a hosted form's custom answers, a direct post's own fields), contain it.
 * Several words are one phrase, found inside one field (`kitchen refit`), as the inbox always did.
 * - A search made only of digits and the signs people write phone numbers with (spaces, dashes, dots, parentheses,
 *   plus), with at least 3 digits, also matches a lead whose phone's digits contain its digits: `5550199` and
 *   `514 555` find `+1 514-555-0199`. With fewer digits it is plain text.
 *
 * Shared with the SQLite search index thread: no Kysely, no pg.
 */

/** A search as compared: its folded text, and its digits when it is a phone search. */
export interface SearchQuery {
  text: string;
  digits: string | null;
}

// A search document's separators are combining marks: folding removes every one of them from the fields and from
// the search, so no search can hold one or match across one (and the document holds no control character).
/** Separates the folded fields. */
const FIELD = '\u0302';
/** Starts the document: the phone's digits come first, up to TEXT. */
const DIGITS = '\u0300';
/** Ends the phone's digits and starts the folded fields. */
const TEXT = '\u0301';

const COMBINING_MARKS = /\p{M}/gu;
const PHONE_SEARCH = /^[\d\s().+-]+$/;
const MIN_DIGITS = 3;

/** Any UTF-16 unit outside ASCII: text without one has no accents to remove. */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * Lower case, NFD, without combining marks (lower case first, so no mark can come back after they go). ASCII text
 * skips the Unicode steps: on PostgreSQL this runs per lead on the intake path (about 1 µs for 1 KB of ASCII, 20 µs
 * for 1 KB of accented text).
 */
export function foldText(text: string): string {
  const lower = text.toLowerCase();
  return NON_ASCII.test(lower) ? lower.normalize('NFD').replace(COMBINING_MARKS, '') : lower;
}

/** The ASCII digits of `text`, in order. */
export function digitsOf(text: string): string {
  return text.replace(/\D/g, '');
}

/** A search as typed (already trimmed and checked for control characters) as it is compared. */
export function searchQuery(term: string): SearchQuery {
  const digits = PHONE_SEARCH.test(term) ? digitsOf(term) : '';
  return { text: foldText(term), digits: digits.length >= MIN_DIGITS ? digits : null };
}

export interface SearchableLead {
  name: string | null;
  email: string | null;
  phone: string | null;
  notes: string | null;
  /** `leads.extra`: JSON object text of the extra fields (string values); each value is searched like a field. */
  extra: string | null;
}

/** The values of `leads.extra` (JSON text), in order; none for no extra fields (`{}`, the common case, not parsed). */
export function extraValues(extra: string | null): string[] {
  if (!extra || extra === '{}') return [];
  const values: string[] = [];
  for (const value of Object.values(JSON.parse(extra) as Record<string, unknown>)) {
    values.push(typeof value === 'string' ? value : JSON.stringify(value));
  }
  return values;
}

/**
 * A lead as search sees it, in one string: `DIGITS` + the phone's digits + `TEXT` + the folded fields (name, email,
 * phone, notes, then each extra field's value), FIELD between.
 * PostgreSQL stores it (`leads.search_text`) and matches it with the two LIKE patterns below; SQLite's index thread
 * indexes its parts.
 */
export function searchDocument(lead: SearchableLead): string {
  const fields = [lead.name, lead.email, lead.phone, lead.notes, ...extraValues(lead.extra)]
    .map((field) => (field === null ? '' : foldText(field)))
    .join(FIELD);
  return `${DIGITS}${digitsOf(lead.phone ?? '')}${TEXT}${fields}`;
}

/** The folded fields of a document (what text search looks in), and the phone's digits. */
export function documentParts(document: string): { text: string; digits: string } {
  const cut = document.indexOf(TEXT);
  return { digits: document.slice(DIGITS.length, cut), text: document.slice(cut + TEXT.length) };
}

export function documentMatches(document: string, query: SearchQuery): boolean {
  const { text, digits } = documentParts(document);
  return text.includes(query.text) || (query.digits !== null && digits.includes(query.digits));
}

/** The exact check: does this lead, as it is now, match the search? */
export function leadMatches(lead: SearchableLead, query: SearchQuery): boolean {
  return documentMatches(searchDocument(lead), query);
}

/**
 * The SQLite function (registered on the app's connection, storage/database.ts) that runs `leadMatches` in SQL:
 * `leadscan_search_match(text, digits, name, email, phone, notes, extra)` is 1 or 0.
 */
export const SEARCH_MATCH_FUNCTION = 'leadscan_search_match';

/** LIKE's own wildcards (and the escape character) taken literally, with `\` as the escape. */
function likeLiteral(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * LIKE patterns over a search document (`… like pattern escape '\'`) that hold exactly when `documentMatches`
 * does: the text anywhere after TEXT; the digits between DIGITS (the document's first character) and TEXT.
 */
export function searchLikePatterns(query: SearchQuery): { text: string; digits: string | null } {
  return {
    text: `%${TEXT}%${likeLiteral(query.text)}%`,
    digits: query.digits === null ? null : `${DIGITS}%${query.digits}%${TEXT}%`,
  };
}
