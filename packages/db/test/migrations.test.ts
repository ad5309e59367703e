import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrateDatabase } from '../src';
import { testDatabaseUrl } from './support/database';

const TABLES = [
  'api_keys',
  'audit_log',
  'batches',
  'downloads',
  'feature_flags',
  'filename_history',
  'images',
  'payments',
  'quota_credits',
  'sessions',
  'subscriptions',
  'upload_rejections',
  'user_identities',
  'users',
  'webhook_deliveries',
  'webhook_endpoints',
  'webhook_events',
];

const TABLES_WITH_UPDATED_AT = [
  'api_keys',
  'batches',
  'downloads',
  'feature_flags',
  'images',
  'payments',
  'sessions',
  'subscriptions',
  'users',
];

function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}

describe('migrations on an empty database', () => {
  const databaseName = `renamer_migrations_${randomBytes(6).toString('hex')}`;
  const admin = postgres(withDatabase(testDatabaseUrl(), 'postgres'), { max: 1, onnotice: () => {} });
  const databaseUrl = withDatabase(testDatabaseUrl(), databaseName);
  let sql: postgres.Sql;

  beforeAll(async () => {
    await admin.unsafe(`create database "${databaseName}"`);
    await migrateDatabase(databaseUrl);
    sql = postgres(databaseUrl, { max: 1, onnotice: () => {} });
  });

  afterAll(async () => {
    await sql?.end();
    await admin.unsafe(`drop database if exists "${databaseName}" with (force)`);
    await admin.end();
  });

  it('is idempotent', async () => {
    await expect(migrateDatabase(databaseUrl)).resolves.toBeUndefined();
  });

  it('creates the seventeen tables', async () => {
    const rows = await sql<{ table_name: string }[]>`
      select table_name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' order by table_name`;
    expect(rows.map((row) => row.table_name)).toEqual(TABLES);
  });

  it('uses uuid primary keys defaulting to gen_random_uuid(), text keys for Stripe events and flags, (day, code) for rejection counts', async () => {
    const rows = await sql<{ table_name: string; column_name: string; data_type: string; column_default: string }[]>`
      select c.table_name, c.column_name, c.data_type, c.column_default
      from information_schema.table_constraints tc
      join information_schema.key_column_usage k
        on k.constraint_name = tc.constraint_name and k.table_schema = tc.table_schema
      join information_schema.columns c
        on c.table_schema = k.table_schema and c.table_name = k.table_name and c.column_name = k.column_name
      where tc.table_schema = 'public' and tc.constraint_type = 'PRIMARY KEY'
      order by c.table_name`;
    const byTable = Object.fromEntries(rows.map((row) => [row.table_name, row]));
    expect(Object.keys(byTable)).toEqual(TABLES);
    const keyed = ['webhook_events', 'feature_flags', 'upload_rejections'];
    for (const table of TABLES.filter((name) => !keyed.includes(name))) {
      expect(byTable[table], table).toMatchObject({ column_name: 'id', data_type: 'uuid' });
      expect(byTable[table]?.column_default).toBe('gen_random_uuid()');
    }
    expect(byTable.webhook_events).toMatchObject({ column_name: 'id', data_type: 'text' });
    expect(byTable.feature_flags).toMatchObject({ column_name: 'key', data_type: 'text' });
    expect(rows.filter((row) => row.table_name === 'upload_rejections').map((row) => row.column_name)).toEqual(
      expect.arrayContaining(['day', 'code']),
    );
  });

  it('creates the enums with the contract values in order', async () => {
    const rows = await sql<{ name: string; values: string[] }[]>`
      select t.typname as name, array_agg(e.enumlabel order by e.enumsortorder)::text[] as values
      from pg_type t join pg_enum e on e.enumtypid = t.oid
      join pg_namespace n on n.oid = t.typnamespace
      where n.nspname = 'public' group by t.typname`;
    const enums = Object.fromEntries(rows.map((row) => [row.name, row.values]));
    expect(enums).toMatchObject({
      plan: ['basic', 'pro', 'max'],
      role: ['user', 'admin'],
      batch_status: ['queued', 'processing', 'completed', 'failed', 'cancelled'],
      image_status: ['queued', 'processing', 'ready', 'approved', 'failed', 'cancelled'],
      payment_status: ['pending', 'succeeded', 'failed', 'refunded', 'partially_refunded'],
    });
  });

  it('creates the foreign keys with their on-delete rules', async () => {
    const rows = await sql<{ source: string; target: string; rule: string }[]>`
      select tc.table_name || '.' || kcu.column_name as source,
             ccu.table_name || '.' || ccu.column_name as target,
             rc.delete_rule as rule
      from information_schema.table_constraints tc
      join information_schema.key_column_usage kcu
        on kcu.constraint_name = tc.constraint_name and kcu.table_schema = tc.table_schema
      join information_schema.constraint_column_usage ccu
        on ccu.constraint_name = tc.constraint_name and ccu.table_schema = tc.table_schema
      join information_schema.referential_constraints rc
        on rc.constraint_name = tc.constraint_name and rc.constraint_schema = tc.table_schema
      where tc.table_schema = 'public' and tc.constraint_type = 'FOREIGN KEY'
      order by source`;
    expect(rows).toEqual([
      { source: 'api_keys.user_id', target: 'users.id', rule: 'CASCADE' },
      { source: 'audit_log.actor_id', target: 'users.id', rule: 'SET NULL' },
      { source: 'batches.user_id', target: 'users.id', rule: 'CASCADE' },
      { source: 'downloads.batch_id', target: 'batches.id', rule: 'SET NULL' },
      { source: 'downloads.image_id', target: 'images.id', rule: 'SET NULL' },
      { source: 'downloads.user_id', target: 'users.id', rule: 'CASCADE' },
      { source: 'filename_history.by', target: 'users.id', rule: 'SET NULL' },
      { source: 'filename_history.image_id', target: 'images.id', rule: 'CASCADE' },
      { source: 'images.batch_id', target: 'batches.id', rule: 'CASCADE' },
      { source: 'images.user_id', target: 'users.id', rule: 'CASCADE' },
      { source: 'payments.user_id', target: 'users.id', rule: 'SET NULL' },
      { source: 'quota_credits.image_id', target: 'images.id', rule: 'SET NULL' },
      { source: 'quota_credits.user_id', target: 'users.id', rule: 'CASCADE' },
      { source: 'sessions.user_id', target: 'users.id', rule: 'CASCADE' },
      { source: 'subscriptions.user_id', target: 'users.id', rule: 'CASCADE' },
      { source: 'user_identities.user_id', target: 'users.id', rule: 'CASCADE' },
      { source: 'webhook_deliveries.endpoint_id', target: 'webhook_endpoints.id', rule: 'CASCADE' },
      { source: 'webhook_endpoints.user_id', target: 'users.id', rule: 'CASCADE' },
    ]);
  });

  it('creates the indexes the lookups need', async () => {
    const rows = await sql<{ indexname: string; indexdef: string }[]>`
      select indexname, indexdef from pg_indexes where schemaname = 'public'`;
    const definitions = Object.fromEntries(rows.map((row) => [row.indexname, row.indexdef]));
    const expected: Record<string, string> = {
      images_batch_id_status_idx: 'ON public.images USING btree (batch_id, status)',
      images_batch_id_created_at_id_idx: 'ON public.images USING btree (batch_id, created_at, id)',
      // Unique unless uploaded again on purpose (duplicates=allow).
      images_user_id_checksum_key:
        'UNIQUE INDEX images_user_id_checksum_key ON public.images USING btree (user_id, checksum) WHERE (NOT reupload)',
      images_user_id_checksum_idx: 'ON public.images USING btree (user_id, checksum)',
      quota_credits_image_id_key:
        'UNIQUE INDEX quota_credits_image_id_key ON public.quota_credits USING btree (image_id)',
      user_identities_provider_subject_key:
        'UNIQUE INDEX user_identities_provider_subject_key ON public.user_identities USING btree (provider, provider_subject)',
      webhook_deliveries_endpoint_id_created_at_idx:
        'ON public.webhook_deliveries USING btree (endpoint_id, created_at)',
      images_batch_id_filename_key:
        'UNIQUE INDEX images_batch_id_filename_key ON public.images USING btree (batch_id, filename)',
      batches_user_id_created_at_id_idx: 'ON public.batches USING btree (user_id, created_at, id)',
      api_keys_key_hash_key: 'UNIQUE INDEX api_keys_key_hash_key ON public.api_keys USING btree (key_hash)',
      payments_user_id_created_at_id_idx: 'ON public.payments USING btree (user_id, created_at, id)',
      sessions_user_id_idx: 'ON public.sessions USING btree (user_id)',
      audit_log_created_at_id_idx: 'ON public.audit_log USING btree (created_at, id)',
      users_provider_subject_key:
        'UNIQUE INDEX users_provider_subject_key ON public.users USING btree (provider, provider_subject)',
      subscriptions_user_id_key: 'UNIQUE INDEX subscriptions_user_id_key ON public.subscriptions USING btree (user_id)',
      filename_history_image_id_created_at_idx: 'ON public.filename_history USING btree (image_id, created_at, id)',
      filename_history_by_idx: 'ON public.filename_history USING btree (by)',
      downloads_expires_at_idx: 'ON public.downloads USING btree (expires_at)',
    };
    for (const [name, definition] of Object.entries(expected)) {
      expect(definitions[name], name).toContain(definition);
    }
  });

  it('attaches the updated_at trigger to exactly the tables with updated_at', async () => {
    const columns = await sql<{ table_name: string }[]>`
      select table_name from information_schema.columns
      where table_schema = 'public' and column_name = 'updated_at' order by table_name`;
    const triggers = await sql<{ table_name: string }[]>`
      select c.relname as table_name from pg_trigger t
      join pg_class c on c.oid = t.tgrelid join pg_proc p on p.oid = t.tgfoid
      where p.proname = 'set_updated_at' and not t.tgisinternal order by c.relname`;
    expect(columns.map((row) => row.table_name)).toEqual(TABLES_WITH_UPDATED_AT);
    expect(triggers.map((row) => row.table_name)).toEqual(TABLES_WITH_UPDATED_AT);
  });

  it('bumps updated_at on update, even when the statement sets it', async () => {
    const past = '2001-01-01T00:00:00Z';
    const [flag] = await sql<{ updated_at: Date }[]>`
      insert into feature_flags (key, enabled, created_at, updated_at)
      values ('trigger-check', false, ${past}, ${past}) returning updated_at`;
    expect(flag?.updated_at.toISOString()).toBe('2001-01-01T00:00:00.000Z');

    const before = Date.now();
    const [updated] = await sql<{ updated_at: Date; created_at: Date }[]>`
      update feature_flags set enabled = true, updated_at = ${past}
      where key = 'trigger-check' returning updated_at, created_at`;
    expect(updated?.updated_at.getTime()).toBeGreaterThanOrEqual(before - 1_000);
    expect(updated?.created_at.toISOString()).toBe('2001-01-01T00:00:00.000Z');
  });
});
