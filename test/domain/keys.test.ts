import fs from 'node:fs';
import { afterEach, beforeEach, expect, it, describe } from 'vitest';
import { authenticateUploadKey } from '../../src/domain/keys/authenticate-upload-key.js';
import { regenerateUploadKey } from '../../src/domain/keys/regenerate-upload-key.js';
import { hashUploadKey, mintUploadKey, SecretBox } from '../../src/domain/secret-box.js';
import { showUploadKey } from '../../src/domain/keys/show-upload-key.js';
import { resolveAppSecret } from '../../src/storage/app-secret.js';
import { describeEachBackend, tempDir } from '../helpers/backends.js';
import { errorCodeOf } from '../helpers/error-code.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

describe('upload key material', () => {
  it('mints lsk_ keys of 32 random bytes, never twice the same', () => {
    const keys = new Set(Array.from({ length: 1000 }, mintUploadKey));
    expect(keys.size).toBe(1000);
    for (const key of keys) {
      expect(key).toMatch(/^lsk_[A-Za-z0-9_-]{43}$/);
      expect(Buffer.from(key.slice(4), 'base64url')).toHaveLength(32);
    }
  });

  it('seals with AES-256-GCM: round trip, fresh IV each time, tamper and wrong secret refused', () => {
    const box = new SecretBox('x'.repeat(40));
    const key = mintUploadKey();
    const a = box.seal(key);
    const b = box.seal(key);
    expect(a).not.toBe(b);
    expect(a).not.toContain(key);
    expect(box.open(a)).toBe(key);
    const tampered = `${a.slice(0, -2)}${a.endsWith('A') ? 'B' : 'A'}${a.slice(-1)}`;
    expect(() => box.open(tampered)).toThrow();
    expect(() => new SecretBox('y'.repeat(40)).open(a)).toThrow();
  });

  it('generates APP_SECRET once, mode 0600, and reuses it', () => {
    const dir = tempDir();
    const first = resolveAppSecret(undefined, dir);
    expect(first.generatedAt).toBeDefined();
    expect(fs.statSync(first.generatedAt!).mode & 0o777).toBe(0o600);
    const second = resolveAppSecret(undefined, dir);
    expect(second.secret).toBe(first.secret);
    expect(second.generatedAt).toBeUndefined();
    expect(resolveAppSecret('z'.repeat(40), dir).secret).toBe('z'.repeat(40));
  });
});

describeEachBackend('workspace upload key', (backend) => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await createWorld(backend);
  });
  afterEach(async () => {
    await world.close();
  });

  it('is found by its hash and shown decrypted', async () => {
    const seeded = await world.seed();
    const row = await world.store.db
      .selectFrom('upload_keys')
      .selectAll()
      .where('workspace_id', '=', seeded.workspaceId)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(hashUploadKey(seeded.uploadKey));
    expect(row.key_enc).not.toContain(seeded.uploadKey);
    expect(await showUploadKey({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} })).toEqual({
      uploadKey: seeded.uploadKey,
    });
    expect(await authenticateUploadKey({ ctx: world.ctx, input: { presented: seeded.uploadKey } })).toEqual({
      workspaceId: seeded.workspaceId,
    });
  });

  it('refuses missing, short and unknown keys with their codes', async () => {
    await world.seed();
    const auth = (presented: string | undefined) => authenticateUploadKey({ ctx: world.ctx, input: { presented } });
    expect(await errorCodeOf(auth(undefined))).toBe('missing_scan_key');
    expect(await errorCodeOf(auth('   '))).toBe('missing_scan_key');
    expect(await errorCodeOf(auth('lsk_short'))).toBe('invalid_scan_key');
    expect(await errorCodeOf(auth(mintUploadKey()))).toBe('invalid_scan_key');
  });

  it('regenerate: the new key works at once and the old one is refused at once', async () => {
    const seeded = await world.seed();
    const { uploadKey } = await regenerateUploadKey({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} });
    expect(uploadKey).not.toBe(seeded.uploadKey);
    expect(await errorCodeOf(authenticateUploadKey({ ctx: world.ctx, input: { presented: seeded.uploadKey } }))).toBe(
      'invalid_scan_key',
    );
    expect(await authenticateUploadKey({ ctx: world.ctx, input: { presented: uploadKey } })).toEqual({
      workspaceId: seeded.workspaceId,
    });
    const rows = await world.store.db.selectFrom('upload_keys').selectAll().execute();
    expect(rows).toHaveLength(1);
  });

  it('keeps keys of workspaces apart', async () => {
    const a = await world.seed('A');
    const b = await world.seed('B');
    expect((await authenticateUploadKey({ ctx: world.ctx, input: { presented: a.uploadKey } })).workspaceId).toBe(
      a.workspaceId,
    );
    expect((await authenticateUploadKey({ ctx: world.ctx, input: { presented: b.uploadKey } })).workspaceId).toBe(
      b.workspaceId,
    );
  });
});

describe('a database dump holds no upload key', () => {
  it('finds no key text in the SQLite file, its WAL, or after a checkpoint', async () => {
    const world = await createWorld('sqlite');
    try {
      const a = await world.seed('A');
      const keys = [a.uploadKey, (await world.seed('B')).uploadKey];
      const regenerated = await regenerateUploadKey({ ctx: inWorkspace(world.ctx, a.workspaceId), input: {} });
      keys.push(regenerated.uploadKey);
      const file = world.testDb.url;
      const dump = () =>
        Buffer.concat([file, `${file}-wal`].filter((f) => fs.existsSync(f)).map((f) => fs.readFileSync(f))).toString(
          'latin1',
        );
      for (const key of keys) {
        expect(dump()).not.toContain(key);
        expect(dump()).not.toContain(key.slice(4));
        // The hash is there: the dump is real and holds the key rows.
      }
      expect(dump()).toContain(hashUploadKey(regenerated.uploadKey));
    } finally {
      await world.close();
    }
  });
});
