import { uuidv7 } from 'uuidv7';

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
