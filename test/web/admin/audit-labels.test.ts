import { describe, expect, it } from 'vitest';
import { AUDIT_ACTIONS } from '../../../src/domain/audit/audit-actions.js';
import { AUDIT_ACTION_LABELS, detailsText, idKind } from '../../../src/web/admin/audit/audit-labels.js';

describe('the Audit log screen’s words', () => {
  it('names every action, each differently', () => {
    const labels = AUDIT_ACTIONS.map((a) => AUDIT_ACTION_LABELS[a]);
    expect(labels.every((l) => typeof l === 'string' && l.length > 0)).toBe(true);
    expect(new Set(labels).size).toBe(AUDIT_ACTIONS.length);
  });

  it('writes details as words: counts with their number, flags that hold, the bot check on or off', () => {
    expect(detailsText({ newAccount: true, owner: false })).toBe('new account');
    expect(detailsText({ leadsMoved: 1200 })).toBe('leads moved: 1,200');
    expect(detailsText({ on: false })).toBe('off');
    expect(detailsText({ leads: 3, quarantine: 0, leadMonths: 24 })).toBe('leads: 3, quarantine: 0, lead months: 24');
    expect(detailsText({})).toBe('');
  });

  it('reads what an id names from its prefix', () => {
    expect(idKind('lead_01a2')).toBe('Lead');
    expect(idKind('src_01a2')).toBe('Source');
    expect(idKind('usr_01a2')).toBe('Person');
    expect(idKind('something')).toBe('Item');
  });
});
