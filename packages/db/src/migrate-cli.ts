import { migrateDatabase } from './migrate';

const databaseUrl = process.env.DATABASE_URL;
if (!databaseUrl) {
  console.error('migrate: DATABASE_URL is not set');
  process.exit(1);
}

try {
  await migrateDatabase(databaseUrl);
  process.stdout.write('migrate: database schema is up to date\n');
} catch (error) {
  console.error(`migrate: failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
}
