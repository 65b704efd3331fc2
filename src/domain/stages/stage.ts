import type { Kysely, Transaction } from 'kysely';
import type { Schema, StageTable } from '../../storage/schema.js';
import { AppError } from '../errors.js';
import { checkText } from '../text-input.js';

export interface Stage {
  key: string;
  name: string;
  position: number;
}

export function toStage(row: Pick<StageTable, 'key' | 'name' | 'position'>): Stage {
  return { key: row.key, name: row.name, position: row.position };
}

/** A pipeline's stages in order. */
export async function loadStages(db: Kysely<Schema> | Transaction<Schema>, pipelineId: string): Promise<Stage[]> {
  const rows = await db
    .selectFrom('stages')
    .select(['key', 'name', 'position'])
    .where('pipeline_id', '=', pipelineId)
    .orderBy('position')
    .orderBy('key')
    .execute();
  return rows.map(toStage);
}

/** A stage by its key, or by its name without regard to case (`--stage contacted`, `--stage "Site visit"`). */
export function pickStage(stages: Stage[], ref: string): Stage {
  const wanted = ref.trim();
  const found =
    stages.find((s) => s.key === wanted) ?? stages.find((s) => s.name.toLowerCase() === wanted.toLowerCase());
  if (!found) {
    throw new AppError(
      'stage_not_found',
      `No stage "${ref}" in this pipeline; its stages are ${stages.map((s) => s.name).join(', ')}`,
    );
  }
  return found;
}

export function checkStageName(name: string, others: Stage[]): string {
  const trimmed = checkText(name, 'name', 'The stage name').trim();
  if (trimmed === '' || [...trimmed].length > 60) {
    throw new AppError('invalid_request', 'A stage name must be 1 to 60 characters');
  }
  if (others.some((s) => s.name.toLowerCase() === trimmed.toLowerCase())) {
    throw new AppError('stage_name_taken', `This pipeline already has a stage named "${trimmed}"`);
  }
  return trimmed;
}

/** A key for a new stage: a slug of its name, made unique in the pipeline; it never changes afterwards. */
export function stageKeyFor(name: string, taken: Stage[]): string {
  const base =
    name
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 40) || 'stage';
  const keys = new Set(taken.map((s) => s.key));
  if (!keys.has(base)) return base;
  for (let n = 2; ; n++) if (!keys.has(`${base}-${n}`)) return `${base}-${n}`;
}
