import { formatArea, type Units } from '../../../domain/units.js';

/** A floor area for a page, in the workspace's units; a dash when there is none. */
export function areaText(m2: number | null, units: Units): string {
  return m2 === null ? '—' : formatArea(m2, units);
}
