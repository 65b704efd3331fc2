import crypto from 'node:crypto';

export interface ScanKeyCase {
  label: string;
  /** Headers to send (no x-scan-key when the case is "missing"). */
  headers: Record<string, string>;
  code: 'missing_scan_key' | 'invalid_scan_key';
}

/**
 * The refused-key cases every route protected by `x-scan-key` must answer with 401 (docs/architecture.md), generated
 * rather than hand-copied. `otherKeys` are live keys of the workspace itself that must not work when mangled.
 */
export function refusedScanKeyCases(liveKey: string): ScanKeyCase[] {
  const random = `lsk_${crypto.randomBytes(32).toString('base64url')}`;
  return [
    { label: 'missing', headers: {}, code: 'missing_scan_key' },
    { label: 'empty', headers: { 'x-scan-key': '' }, code: 'missing_scan_key' },
    { label: 'blank', headers: { 'x-scan-key': '   ' }, code: 'missing_scan_key' },
    { label: 'one character', headers: { 'x-scan-key': 'x' }, code: 'invalid_scan_key' },
    { label: '31 characters (too short)', headers: { 'x-scan-key': liveKey.slice(0, 31) }, code: 'invalid_scan_key' },
    {
      label: 'the live key minus its last character',
      headers: { 'x-scan-key': liveKey.slice(0, -1) },
      code: 'invalid_scan_key',
    },
    { label: 'the live key plus a character', headers: { 'x-scan-key': `${liveKey}A` }, code: 'invalid_scan_key' },
    {
      label: 'the live key in another case',
      headers: { 'x-scan-key': liveKey.toUpperCase() },
      code: 'invalid_scan_key',
    },
    { label: 'an unknown well-formed key', headers: { 'x-scan-key': random }, code: 'invalid_scan_key' },
    { label: 'a very long key', headers: { 'x-scan-key': 'k'.repeat(4000) }, code: 'invalid_scan_key' },
  ];
}
