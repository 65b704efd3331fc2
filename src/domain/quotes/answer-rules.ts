import type { Selectable } from 'kysely';
import type { QuoteTable } from '../../storage/schema.js';
import { AppError } from '../errors.js';
import { notAnswerable, quoteStates } from './quote-states.js';
import { isExpired } from './quote-view.js';

/**
 * Whether the customer may still answer (`accept`, `decline`) the revision a link shows, for an answer posted for
 * `revision`: an older revision is refused ("this quote was updated"), an answered one is final, a withdrawn or
 * expired one is closed (quote-states.ts).
 */
export function requireAnswerable(
  row: Selectable<QuoteTable>,
  revision: number,
  timeZone: string,
  now: Date,
  verb: 'accept' | 'decline' = 'accept',
): void {
  if (Number(row.revision) !== revision)
    throw new AppError('quote_updated', 'This quote was updated: read the new version before answering it');
  quoteStates.requireMove(verb, row.status, notAnswerable);
  if (isExpired(row.valid_until, timeZone, now))
    throw new AppError('quote_expired', `This quote was valid until ${row.valid_until} and can no longer be accepted`);
}
