import { uuidv7 } from 'uuidv7';
import type { StageHistoryTable } from '../../storage/schema.js';

/** Who moved a lead: a signed-in user (id and name), or a label such as "cli". */
export interface MovedBy {
  userId: string | null;
  label: string;
}

export const CLI_ACTOR: MovedBy = { userId: null, label: 'cli' };

export function newHistoryId(): string {
  return `sh_${uuidv7().replaceAll('-', '')}`;
}

export interface StageMove {
  fromStage: string;
  fromName: string;
  toStage: string;
  toName: string;
  byUserId: string | null;
  byLabel: string;
  movedAt: string;
}

/** A stored move as the lead page and the person export show it. */
export function stageMoveOf(row: StageHistoryTable): StageMove {
  return {
    fromStage: row.from_stage,
    fromName: row.from_name,
    toStage: row.to_stage,
    toName: row.to_name,
    byUserId: row.by_user_id,
    byLabel: row.by_label,
    movedAt: row.moved_at,
  };
}
