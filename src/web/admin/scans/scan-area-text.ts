import type { Units } from '../../../domain/settings/workspace-settings.js';

const SQ_FT_PER_M2 = 10.763910416709722;

/** A floor area for a page, in the workspace's units; a dash when there is none. */
export function areaText(m2: number | null, units: Units): string {
  if (m2 === null) return '—';
  return units === 'imperial' ? `${Math.round(m2 * SQ_FT_PER_M2).toLocaleString('en-US')} ft²` : `${m2.toFixed(1)} m²`;
}
