import { AppError, type FieldError } from '../errors.js';
import { hasControlCharacters } from '../text-input.js';
import type { LeadFields } from '../lead-fields.js';

/**
 * A source's spam rules (docs/admin-app.md, "Spam rules"): blocked emails (exact), email domains and words
 * (whole words, in the name, notes and extra text), and the sites allowed to post (an exact host or `*.suffix`).
 * Stored as JSON text on the source (`lead_sources.spam_rules`) and read with it, so intake checks them without a
 * query of its own; compiled once per read of the source (the intake source cache keeps the compiled form).
 */
export interface SpamRules {
  blockedEmails: string[];
  blockedDomains: string[];
  blockedWords: string[];
  allowedSites: string[];
}

export type SpamRuleList = keyof SpamRules;
export const SPAM_RULE_LISTS: readonly SpamRuleList[] = ['blockedEmails', 'blockedDomains', 'blockedWords', 'allowedSites'];

/** Each list's bound and each entry's, in code points. */
export const SPAM_RULE_LIMITS = { entries: 500, length: 200 } as const;

export const BLOCKED_RULE_REASON = 'blocked_rule';
export const SITE_NOT_ALLOWED_REASON = 'site_not_allowed';

/** Why a post goes to Quarantine instead of the inbox, and what caught it (shown on the Quarantine screen). */
export interface SpamCatch {
  reason: typeof BLOCKED_RULE_REASON | typeof SITE_NOT_ALLOWED_REASON;
  detail: string;
}

export interface CompiledSpamRules {
  rules: SpamRules;
  emails: ReadonlySet<string>;
  domains: readonly string[];
  /** One pattern for all blocked words; null when there are none. */
  words: RegExp | null;
  sites: readonly string[];
}

export const EMPTY_SPAM_RULES: SpamRules = { blockedEmails: [], blockedDomains: [], blockedWords: [], allowedSites: [] };

const LABELS: Record<SpamRuleList, string> = {
  blockedEmails: 'Blocked emails',
  blockedDomains: 'Blocked email domains',
  blockedWords: 'Blocked words',
  allowedSites: 'Allowed sites',
};

/** How an entry of each list is written once accepted (lower case; a domain or site without a leading `@`/scheme). */
function canonical(list: SpamRuleList, entry: string): string {
  const text = entry.trim().toLowerCase();
  if (list === 'blockedDomains') return text.replace(/^@/, '');
  if (list === 'allowedSites') return text.replace(/^[a-z][a-z0-9+.-]*:\/\//, '').replace(/[/:].*$/, '');
  return text;
}

const HOST = /^(\*\.)?[a-z0-9\u00a1-\uffff]([a-z0-9\u00a1-\uffff-]*[a-z0-9\u00a1-\uffff])?(\.[a-z0-9\u00a1-\uffff]([a-z0-9\u00a1-\uffff-]*[a-z0-9\u00a1-\uffff])?)*$/u;

function entryProblem(list: SpamRuleList, entry: string): string | null {
  if (entry === '') return null;
  if ([...entry].length > SPAM_RULE_LIMITS.length) return `at most ${SPAM_RULE_LIMITS.length} characters each`;
  if (hasControlCharacters(entry)) return 'no control characters';
  if (list === 'blockedEmails' && !/^[^\s@]+@[^\s@]+$/.test(entry)) return `"${entry}" is not an email address`;
  if (list === 'blockedDomains' && !HOST.test(entry)) return `"${entry}" is not a domain (example.com)`;
  if (list === 'allowedSites' && !HOST.test(entry)) return `"${entry}" is not a site (www.example.com or *.example.com)`;
  return null;
}

/**
 * Checks and tidies rules as a person gives them (the spam page, `leadscan sources block`): entries trimmed,
 * lower-cased, blanks and repeats dropped, each list bounded. Throws `invalid_request` naming the lists at fault.
 */
export function checkSpamRules(input: Partial<Record<SpamRuleList, readonly string[]>>): SpamRules {
  const rules: SpamRules = { blockedEmails: [], blockedDomains: [], blockedWords: [], allowedSites: [] };
  const errors: FieldError[] = [];
  for (const list of SPAM_RULE_LISTS) {
    const seen = new Set<string>();
    let problem: string | null = null;
    for (const raw of input[list] ?? []) {
      const entry = canonical(list, raw);
      problem ??= entryProblem(list, entry);
      if (entry !== '' && !seen.has(entry)) seen.add(entry);
    }
    if (!problem && seen.size > SPAM_RULE_LIMITS.entries) problem = `at most ${SPAM_RULE_LIMITS.entries} entries`;
    if (problem) errors.push({ field: list, code: 'invalid', message: `${LABELS[list]}: ${problem}` });
    rules[list] = [...seen];
  }
  if (errors.length > 0) throw new AppError('invalid_request', errors.map((e) => e.message).join('; '), errors);
  return rules;
}

/** Rules as stored (null: none); unreadable text counts as none rather than closing the source's intake. */
export function parseSpamRules(text: string | null | undefined): SpamRules {
  if (!text) return EMPTY_SPAM_RULES;
  try {
    const parsed = JSON.parse(text) as Partial<SpamRules>;
    const list = (l: SpamRuleList) => (Array.isArray(parsed[l]) ? parsed[l].filter((e): e is string => typeof e === 'string') : []);
    return { blockedEmails: list('blockedEmails'), blockedDomains: list('blockedDomains'), blockedWords: list('blockedWords'), allowedSites: list('allowedSites') };
  } catch {
    return EMPTY_SPAM_RULES;
  }
}

/** The column's value for these rules: null when every list is empty. */
export function spamRulesText(rules: SpamRules): string | null {
  return SPAM_RULE_LISTS.some((l) => rules[l].length > 0) ? JSON.stringify(rules) : null;
}

export function hasSpamRules(rules: SpamRules): boolean {
  return spamRulesText(rules) !== null;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Null when the source has no rules, so the intake check costs one comparison. */
export function compileSpamRules(rules: SpamRules): CompiledSpamRules | null {
  if (!hasSpamRules(rules)) return null;
  const words = rules.blockedWords;
  return {
    rules,
    emails: new Set(rules.blockedEmails),
    domains: rules.blockedDomains,
    // Whole words: not preceded or followed by a letter, digit or underscore of any script.
    words: words.length > 0 ? new RegExp(`(?<![\\p{L}\\p{N}_])(?:${words.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}_])`, 'iu') : null,
    sites: rules.allowedSites,
  };
}

/** The host of an Origin or Referer value, lower case; null when it is absent, `null` or not a URL. */
function hostOf(value: string | null): string | null {
  if (value === null || value === 'null') return null;
  try {
    return new URL(value).hostname.toLowerCase() || null;
  } catch {
    return null;
  }
}

function siteAllows(site: string, host: string): boolean {
  return site.startsWith('*.') ? host.endsWith(site.slice(1)) : host === site;
}

/**
 * Whether a valid post is spam by its source's rules, and why; null to store it as a lead. Blocked rules come
 * first (they name what the poster wrote). Allowed sites judge the post's Origin, else its Referer; a post with
 * neither (a server-side integration, curl) is let through, since nothing says where it came from, and a post
 * from `ownHosts` (the hosted form, served by this server) always is.
 */
export function spamCatchOf(
  compiled: CompiledSpamRules | null,
  fields: LeadFields,
  meta: { origin: string | null; referer: string | null },
  ownHosts: readonly string[],
): SpamCatch | null {
  if (!compiled) return null;
  const email = fields.email?.trim().toLowerCase() ?? '';
  if (email !== '') {
    if (compiled.emails.has(email)) return { reason: BLOCKED_RULE_REASON, detail: `email ${email}` };
    const domain = email.slice(email.lastIndexOf('@') + 1);
    // A blocked domain blocks its subdomains too (mail.example.com for example.com).
    const blocked = compiled.domains.find((d) => domain === d || domain.endsWith(`.${d}`));
    if (blocked !== undefined) return { reason: BLOCKED_RULE_REASON, detail: `domain ${blocked}` };
  }
  if (compiled.words) {
    for (const text of [fields.name, fields.notes, ...Object.values(fields.extra)]) {
      const match = text ? compiled.words.exec(text) : null;
      if (match) return { reason: BLOCKED_RULE_REASON, detail: `word ${match[0].toLowerCase()}` };
    }
  }
  if (compiled.sites.length > 0) {
    const host = hostOf(meta.origin) ?? hostOf(meta.referer);
    if (host !== null && !ownHosts.includes(host) && !compiled.sites.some((s) => siteAllows(s, host))) {
      return { reason: SITE_NOT_ALLOWED_REASON, detail: host };
    }
  }
  return null;
}
