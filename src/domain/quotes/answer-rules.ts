import type { Selectable } from 'kysely';
import type { QuoteTable } from '../../storage/schema.js';
import { AppError } from '../errors.js';
import { isExpired } from './quote-view.js';

/**
 * Whether the customer may still answer the revision a link shows, for an answer posted for `revision`: an older
 * revision is refused ("this quote was updated"), an answered one is final, a withdrawn or expired one is closed.
 */
export function requireAnswerable(row: Selectable<QuoteTable>, revision: number, timeZone: string, now: Date): void {
  if (Number(row.revision) !== revision)
    throw new AppError('quote_updated', 'This quote was updated: read the new version before answering it');
  if (row.status === 'accepted' || row.status === 'declined')
    throw new AppError('quote_final', `This quote was already ${row.status}`);
  if (row.status === 'withdrawn') throw new AppError('quote_link_unusable', 'This quote was withdrawn by the sender');
  if (isExpired(row.valid_until, timeZone, now))
    throw new AppError('quote_expired', `This quote was valid until ${row.valid_until} and can no longer be accepted`);
}
