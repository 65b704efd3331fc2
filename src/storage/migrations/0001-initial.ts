import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/** The schema as first released. Shipped: never edit it; add a migration file instead. */
export function binary(dialect: Dialect) {
  return dialect === 'postgres' ? sql`bytea` : sql`blob`;
}

export function initial(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('app_meta')
        .addColumn('key', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('pipelines')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('pipelines_workspace').on('pipelines').column('workspace_id').execute();

      await db.schema
        .createTable('lead_sources')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('pipeline_id', 'text', (c) => c.notNull().references('pipelines.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('token', 'text', (c) => c.notNull().unique())
        .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('bot_check_provider', 'text')
        .addColumn('bot_check_secret_enc', 'text')
        .addColumn('bot_check_site_key', 'text')
        .addColumn('bot_check_min_score', 'real')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('lead_sources_pipeline').on('lead_sources').column('pipeline_id').execute();

      await db.schema
        .createTable('upload_keys')
        .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id'))
        .addColumn('key_hash', 'text', (c) => c.notNull().unique())
        .addColumn('key_enc', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_connected_at', 'text')
        .addColumn('last_used_at', 'text')
        .execute();

      await db.schema
        .createTable('leads')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('pipeline_id', 'text', (c) => c.notNull().references('pipelines.id'))
        .addColumn('source_id', 'text', (c) => c.notNull().references('lead_sources.id'))
        .addColumn('stage', 'text', (c) => c.notNull().defaultTo('inbox'))
        .addColumn('name', 'text')
        .addColumn('phone', 'text')
        .addColumn('email', 'text')
        .addColumn('address', 'text')
        .addColumn('notes', 'text')
        .addColumn('extra', 'text', (c) => c.notNull().defaultTo('{}'))
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addColumn('client_ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('origin', 'text')
        .addColumn('referer', 'text')
        .addColumn('bot_check', 'text', (c) => c.notNull().defaultTo('off'))
        .addColumn('idempotency_key', 'text')
        .addColumn('restored_from', 'text')
        .execute();
      await db.schema
        .createIndex('leads_workspace_received')
        .on('leads')
        .columns(['workspace_id', 'received_at'])
        .execute();
      await db.schema
        .createIndex('leads_pipeline_received')
        .on('leads')
        .columns(['pipeline_id', 'received_at'])
        .execute();

      await db.schema
        .createTable('quarantine')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('source_id', 'text', (c) => c.notNull().references('lead_sources.id'))
        .addColumn('reason', 'text', (c) => c.notNull())
        .addColumn('fields', 'text', (c) => c.notNull())
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addColumn('client_ip', 'text')
        .addColumn('user_agent', 'text')
        .addColumn('origin', 'text')
        .addColumn('referer', 'text')
        .addColumn('restored_lead_id', 'text')
        .execute();
      await db.schema
        .createIndex('quarantine_source_received')
        .on('quarantine')
        .columns(['source_id', 'received_at'])
        .execute();
      await db.schema
        .createIndex('quarantine_workspace_received')
        .on('quarantine')
        .columns(['workspace_id', 'received_at'])
        .execute();

      await db.schema
        .createTable('scans')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('received_at', 'text', (c) => c.notNull())
        .addColumn('room_count', 'integer', (c) => c.notNull())
        .addColumn('byte_size', 'integer', (c) => c.notNull())
        .addColumn('user_agent', 'text')
        .addColumn('raw', binary(dialect), (c) => c.notNull())
        .addColumn('idempotency_key', 'text')
        .execute();
      await db.schema
        .createIndex('scans_workspace_received')
        .on('scans')
        .columns(['workspace_id', 'received_at'])
        .execute();

      await db.schema
        .createTable('scan_rooms')
        .addColumn('scan_id', 'text', (c) => c.notNull().references('scans.id'))
        .addColumn('idx', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('raw', binary(dialect), (c) => c.notNull())
        .addPrimaryKeyConstraint('scan_rooms_pk', ['scan_id', 'idx'])
        .execute();

      await db.schema
        .createTable('idempotency_keys')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('request_hash', 'text', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('response_status', 'integer')
        .addColumn('response_body', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['scope', 'key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_expires').on('idempotency_keys').column('expires_at').execute();
    },
  };
}
