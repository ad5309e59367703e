import { boolean, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, updatedAt } from './columns';

export const featureFlags = pgTable('feature_flags', {
  key: text('key').primaryKey(),
  enabled: boolean('enabled').notNull().default(false),
  description: text('description'),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});
