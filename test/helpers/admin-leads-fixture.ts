import { expect } from 'vitest';
import type { App } from '../../src/app.js';
import { inWorkspace, type DomainContext } from '../../src/domain/context.js';
import { addNote } from '../../src/domain/leads/add-note.js';
import { CLI_ACTOR } from '../../src/domain/stages/stage-history.js';
import type { Seeded } from './test-app.js';

/** What the Leads, Stages and Quarantine routes need in each workspace: a lead with a note, and a honeypot catch. */
export async function leadsFixtureExtra(
  app: App,
  world: { ctx: DomainContext; store: { db: import('kysely').Kysely<import('../../src/storage/schema.js').Schema> } },
  home: Seeded,
  away: Seeded,
): Promise<Record<string, string>> {
  const post = async (seeded: Seeded, payload: Record<string, string>) => {
    const res = await app.inject({ method: 'POST', url: `/api/intake/${seeded.source.token}`, payload });
    expect(res.statusCode).toBe(200);
    return res.json<{ id: string }>().id;
  };
  const quarantined = async (seeded: Seeded) => {
    await post(seeded, { name: 'Caught', website: 'autofill' });
    const row = await world.store.db
      .selectFrom('quarantine')
      .select('id')
      .where('workspace_id', '=', seeded.workspaceId)
      .executeTakeFirstOrThrow();
    return row.id;
  };
  const homeLeadId = await post(home, { name: 'Home lead', phone: '555 0100' });
  const awayLeadId = await post(away, { name: 'Away lead', phone: '555 0199' });
  const note = async (seeded: Seeded, leadId: string) =>
    (
      await addNote({
        ctx: inWorkspace(world.ctx, seeded.workspaceId),
        input: { leadId, text: 'Called, back Tuesday', by: CLI_ACTOR },
      })
    ).id;
  return {
    homeLeadId,
    awayLeadId,
    homeNoteId: await note(home, homeLeadId),
    awayNoteId: await note(away, awayLeadId),
    homeQuarantineId: await quarantined(home),
    awayQuarantineId: await quarantined(away),
  };
}
