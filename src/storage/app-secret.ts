import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface ResolvedSecret {
  secret: string;
  /** Set when the secret was generated and written in this call. */
  generatedAt?: string;
}

/**
 * APP_SECRET, or the one generated on first start and kept beside the database (mode 0600). Generating
 * is safe only for a single machine; several instances must share one APP_SECRET (docs/operations.md).
 */
export function resolveAppSecret(configured: string | undefined, dataDir: string): ResolvedSecret {
  if (configured) return { secret: configured };
  const file = path.join(dataDir, 'app-secret');
  try {
    const existing = fs.readFileSync(file, 'utf8').trim();
    if (existing.length >= 32) return { secret: existing };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  fs.mkdirSync(dataDir, { recursive: true });
  const secret = crypto.randomBytes(48).toString('base64url');
  try {
    // 'wx': two processes starting at once must not overwrite each other's secret.
    fs.writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return resolveAppSecret(undefined, dataDir);
    throw error;
  }
  return { secret, generatedAt: file };
}
