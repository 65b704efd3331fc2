import { AppError } from './errors.js';

/** `owner` does everything; `member` works the inboxes and scans (docs/security.md). */
export type Role = 'owner' | 'member';
export const ROLES: readonly Role[] = ['owner', 'member'];

export function checkRole(role: string): Role {
  if (!ROLES.includes(role as Role)) {
    throw new AppError('invalid_fields', `The role must be owner or member, not "${role}"`, [
      { field: 'role', code: 'invalid', message: 'Choose owner or member' },
    ]);
  }
  return role as Role;
}
