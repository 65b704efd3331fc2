import type { MigrationProvider } from 'kysely';
import type { Dialect } from '../database.js';
import { initial } from './0001-initial.js';
import { people } from './0003-people.js';
import { stages } from './0004-stages.js';

/**
 * One set of migrations for both backends, written with Kysely's schema builder, one file each. The only dialect
 * difference is the binary column type (`binary` in 0001-initial.ts). Migrations are append-only once released:
 * add a new file and a line below, never edit one. Kysely runs them in the order of their names.
 */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    getMigrations: () =>
      Promise.resolve({
        '0001_initial': initial(dialect),
        '0003_people': people(),
        '0004_stages': stages(dialect),
      }),
  };
}
