import os from 'node:os';
import type { Actor } from '../context.js';

export const SYSTEM_ACTOR: Actor = { kind: 'system' };

/** The CLI's actor: the operating-system account that ran the command. */
export function cliActor(): Actor {
  let osUser = 'unknown';
  try {
    osUser = os.userInfo().username || osUser;
  } catch {
    // No passwd entry for the uid (some containers): the record still says it was the CLI.
  }
  return { kind: 'cli', osUser };
}

export function userActor(user: { userId: string; displayName: string }): Actor {
  return { kind: 'user', userId: user.userId, displayName: user.displayName };
}
