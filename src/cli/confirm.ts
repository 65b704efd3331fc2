import { AppError } from '../domain/errors.js';

/** Deletes cannot be undone: every delete command asks for --yes (docs/cli.md). */
export function requireYes(opts: { yes?: boolean }, what: string): void {
  if (!opts.yes) throw new AppError('invalid_arguments', `Deleting ${what} cannot be undone; add --yes to confirm`);
}
