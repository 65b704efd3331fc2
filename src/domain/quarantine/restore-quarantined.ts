import { AppError } from '../errors.js';
import type { VerbArgs } from '../context.js';

/** Placeholder until the intake issue lands: restoring needs the intake's field normalization. */
export async function restoreQuarantined({ input }: VerbArgs<{ id: string }>): Promise<{ leadId: string }> {
  throw new AppError('quarantine_item_not_found', `No quarantined submission has the id ${input.id}`);
}
