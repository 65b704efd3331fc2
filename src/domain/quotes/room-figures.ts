import type { WorkspaceVerbArgs } from '../context.js';
import { scanFigures } from '../scans/measure-scan.js';

/** A room's figures the picker shows beside its name, in square metres (shown in the workspace's units). */
export interface RoomFigures {
  floorArea: number | null;
  /** The walls' area less doors and windows: what paint and wallpaper are priced by. */
  wallArea: number | null;
}

/**
 * The floor area and walls of each room of the given scans of the workspace, keyed `{scanId}:{room}` (the room's
 * index from 1, as the picker's boxes name it), so New quote shows what each room measures before it is priced
 * (docs/admin-app.md, "Quotes"). Reading a scan not measured yet measures it, as its page does.
 */
export async function roomFiguresOf({
  ctx,
  input,
}: WorkspaceVerbArgs<{ scanIds: readonly string[] }>): Promise<Map<string, RoomFigures>> {
  const figures = new Map<string, RoomFigures>();
  for (const scanId of input.scanIds) {
    const scan = await scanFigures({ ctx, input: { workspaceId: ctx.workspaceId, scanId } });
    for (const room of scan.rooms) {
      figures.set(`${scanId}:${room.index + 1}`, {
        floorArea: room.measurement.floorArea?.value ?? null,
        wallArea: room.measurement.wallAreaNet?.value ?? null,
      });
    }
  }
  return figures;
}
