import { Migrator } from 'kysely';
import { expect, it } from 'vitest';
import { credentialsFingerprint } from '../../src/domain/auth/credentials-fingerprint.js';
import { openDatabase } from '../../src/storage/database.js';
import { migrationProvider } from '../../src/storage/migrations/index.js';
import { createTestDatabase, describeEachBackend } from '../helpers/backends.js';

describeEachBackend('migration 0030 on a database with links in flight', (backend) => {
  it('ties every unused link to its account as it is now, so it keeps working until the account changes', async () => {
    const testDb = await createTestDatabase(backend);
    const store = openDatabase(
      backend === 'sqlite' ? { kind: 'sqlite', path: testDb.url } : { kind: 'postgres', url: testDb.url },
    );
    try {
      const migrator = new Migrator({ db: store.db, provider: migrationProvider(store.dialect) });
      expect((await migrator.migrateTo('0025_search_beside_leads')).error).toBeUndefined();
      const now = '2026-11-26T12:00:00.000Z';
      const later = '2026-11-27T12:00:00.000Z';
      const user = (id: string, email: string, hash: string | null) => ({
        id,
        email,
        email_key: email.toLowerCase(),
        display_name: id,
        password_hash: hash,
        created_at: now,
        password_changed_at: null,
        email_proven_at: null,
        link_workspace_id: null,
      });
      await store.db
        .insertInto('users')
        .values([user('usr_1', 'Ada@A.test', 'scrypt$hash-one'), user('usr_2', 'admin@localhost', null)])
        .execute();
      const link = (token_hash: string, user_id: string, used_at: string | null) => ({
        token_hash,
        user_id,
        created_at: now,
        expires_at: later,
        used_at,
      });
      await store.db
        .insertInto('setup_links')
        .values([link('h1', 'usr_1', null), link('h2', 'usr_2', null), link('h3', 'usr_1', now)])
        .execute();
      await store.db
        .insertInto('email_changes')
        .values({ ...link('h4', 'usr_1', null), new_email: 'ada@new.test' })
        .execute();

      await store.migrate();
      const issued = Object.fromEntries(
        [
          ...(await store.db.selectFrom('setup_links').select(['token_hash', 'issued_for']).execute()),
          ...(await store.db.selectFrom('email_changes').select(['token_hash', 'issued_for']).execute()),
        ].map((r) => [r.token_hash, r.issued_for]),
      );
      const ada = credentialsFingerprint({ password_hash: 'scrypt$hash-one', email_key: 'ada@a.test' });
      expect(issued).toEqual({
        h1: ada,
        h2: credentialsFingerprint({ password_hash: null, email_key: 'admin@localhost' }),
        h3: null,
        h4: ada,
      });
    } finally {
      await store.close();
      await testDb.drop();
    }
  });
});
