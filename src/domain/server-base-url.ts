import type { DomainContext } from './context.js';

const KEY = 'server_base_url';

/**
 * The base URL the server serves links with, kept in the database on every start so the CLI, run from another
 * shell with another environment, prints the same links (docs/cli.md).
 */
export async function recordServerBaseUrl(ctx: DomainContext, baseUrl: string): Promise<void> {
  await ctx.store.writer.write((trx) =>
    trx
      .insertInto('app_meta')
      .values({ key: KEY, value: baseUrl })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: baseUrl }))
      .execute(),
  );
}

/** PUBLIC_BASE_URL when set, else the server's last base URL, else the configured default. */
export async function linkBaseUrl(ctx: DomainContext): Promise<string> {
  if (ctx.config.publicBaseUrlSet) return ctx.config.publicBaseUrl;
  const row = await ctx.store.db.selectFrom('app_meta').select('value').where('key', '=', KEY).executeTakeFirst();
  return row?.value ?? ctx.config.publicBaseUrl;
}
