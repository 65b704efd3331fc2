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
export const SPAM_RULE_LISTS: readonly SpamRuleList[] = [
  'blockedEmails',
  'blockedDomains',
  'blockedWords',
  'allowedSites',
];

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

export const EMPTY_SPAM_RULES: SpamRules = {
  blockedEmails: [],
  blockedDomains: [],
  blockedWords: [],
  allowedSites: [],
};

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
  // A pasted URL is cut to its host, and its port when it names one (`example.com:8080`).
  if (list === 'allowedSites')
    return text
      .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
      .replace(/[/?#].*$/, '')
      .replace(/:$/, '');
  return text;
}

/** One label of a host name (letters, digits, inner hyphens; any non-ASCII letter). */
const HOST_LABEL = /[a-z0-9\u00a1-\uffff]([a-z0-9\u00a1-\uffff-]*[a-z0-9\u00a1-\uffff])?/u.source;
const HOST = new RegExp(String.raw`^(\*\.)?${HOST_LABEL}(\.${HOST_LABEL})*$`, 'u');

/** An allowed site: a host or `*.suffix`, with a port (1–65535) or without one (any port). */
function isSite(entry: string): boolean {
  const match = /^(.+):(\d+)$/.exec(entry);
  const [host, port] = match ? [match[1]!, match[2]!] : [entry, null];
  return HOST.test(host) && (port === null || (Number(port) >= 1 && Number(port) <= 65535));
}

/** A host as URLs carry it (an international name in its punycode form), `*.` kept. */
function asciiHost(host: string): string {
  const wild = host.startsWith('*.');
  try {
    return `${wild ? '*.' : ''}${new URL(`http://${wild ? host.slice(2) : host}`).hostname}`;
  } catch {
    return host;
  }
}

/** An allowed site's host (ASCII, as URLs carry it) and its port (null: any port). */
export function splitSite(site: string): { host: string; port: string | null } {
  const match = /^(.+):(\d+)$/.exec(site);
  return match ? { host: asciiHost(match[1]!), port: String(Number(match[2])) } : { host: asciiHost(site), port: null };
}

function entryProblem(list: SpamRuleList, entry: string): string | null {
  if (entry === '') return null;
  if ([...entry].length > SPAM_RULE_LIMITS.length) return `at most ${SPAM_RULE_LIMITS.length} characters each`;
  if (hasControlCharacters(entry)) return 'no control characters';
  if (list === 'blockedEmails' && !/^[^\s@]+@[^\s@]+$/.test(entry)) return `"${entry}" is not an email address`;
  if (list === 'blockedDomains' && !HOST.test(entry)) return `"${entry}" is not a domain (example.com)`;
  if (list === 'allowedSites' && !isSite(entry))
    return `"${entry}" is not a site (www.example.com, *.example.com or example.com:8080)`;
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
    const list = (l: SpamRuleList) =>
      Array.isArray(parsed[l]) ? parsed[l].filter((e): e is string => typeof e === 'string') : [];
    return {
      blockedEmails: list('blockedEmails'),
      blockedDomains: list('blockedDomains'),
      blockedWords: list('blockedWords'),
      allowedSites: list('allowedSites'),
    };
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
    words:
      words.length > 0
        ? new RegExp(`(?<![\\p{L}\\p{N}_])(?:${words.map(escapeRegExp).join('|')})(?![\\p{L}\\p{N}_])`, 'iu')
        : null,
    sites: rules.allowedSites,
  };
}

/** Where a page is: its host, lower case, and its port (the scheme's own when the address names none). */
interface PageAddress {
  host: string;
  port: string;
}

/** The address of an Origin, Referer or page URL; null when it is absent, `null` or not an http(s) URL. */
function addressOf(value: string | null): PageAddress | null {
  if (value === null || value === 'null') return null;
  try {
    const url = new URL(value);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    const host = url.hostname.toLowerCase();
    return host ? { host, port: url.port || (url.protocol === 'https:' ? '443' : '80') } : null;
  } catch {
    return null;
  }
}

/** How an address is named in a catch's detail: its host, and its port when the scheme's own is not implied. */
const shown = (address: PageAddress, value: string) => new URL(value).host.toLowerCase() || address.host;

/**
 * A site (`host`, `*.suffix`, either with `:port`) allows an address: same host or below the suffix, and the same port
 * when it names one.
 */
export function siteAllows(site: string, address: PageAddress): boolean {
  const { host, port } = splitSite(site);
  if (port !== null && port !== address.port) return false;
  return host.startsWith('*.') ? address.host.endsWith(host.slice(1)) : address.host === host;
}

/**
 * Whether a valid post is spam by its source's rules, and why; null to store it as a lead. Blocked rules come
 * first (they name what the poster wrote). Allowed sites judge the post's Origin, else its Referer; a post with
 * neither (a server-side integration, curl) is let through, since nothing says where it came from. A post from
 * `ownHosts` (the hosted form, served by this server; `host` or `host:port` as the request named it) is judged by
 * `embeddedIn` instead, the address of the page the hosted form was embedded in (its `pageUrl`), and let through
 * when there is none (the form opened at its own address). Hosts compare with their ports when a site names one.
 */
export function spamCatchOf(
  compiled: CompiledSpamRules | null,
  fields: LeadFields,
  meta: { origin: string | null; referer: string | null },
  ownHosts: readonly string[],
  embeddedIn: string | null = null,
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
    const sent = addressOf(meta.origin) ? meta.origin : addressOf(meta.referer) ? meta.referer : null;
    const from = addressOf(sent);
    if (from === null || sent === null) return null;
    const fromOwn = ownHosts.some((own) => siteAllows(own, from));
    const judged = fromOwn ? embeddedIn : sent;
    const address = addressOf(judged);
    if (judged !== null && address !== null && !compiled.sites.some((s) => siteAllows(s, address))) {
      return { reason: SITE_NOT_ALLOWED_REASON, detail: shown(address, judged) };
    }
  }
  return null;
}
