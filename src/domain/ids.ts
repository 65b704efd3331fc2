import { uuidv7 } from 'uuidv7';

/** Prefixed, time-ordered identifiers: `lead_0193a4c2…` (UUIDv7 without dashes, so ids sort by creation). */
export type IdPrefix = 'ws' | 'pl' | 'src' | 'lead' | 'qr' | 'scan' | 'usr';

export function newId(prefix: IdPrefix): string {
  return `${prefix}_${uuidv7().replaceAll('-', '')}`;
}

const ID_PATTERN = /^[a-z]+_[0-9a-f]{32}$/;

export function looksLikeId(prefix: IdPrefix, value: string): boolean {
  return value.startsWith(`${prefix}_`) && ID_PATTERN.test(value);
}
