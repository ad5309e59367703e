import { asc, eq, sql } from 'drizzle-orm';
import type { Database, Executor } from '../client';
import { featureFlags } from '../schema';

export type FeatureFlag = typeof featureFlags.$inferSelect;

export interface FeatureFlagInput {
  key: string;
  enabled: boolean;
  /** Omitted: an existing description is kept. */
  description?: string | null;
}

export function createFeatureFlagRepository(db: Database) {
  return {
    async get(key: string, tx?: Executor): Promise<FeatureFlag | null> {
      const [row] = await (tx ?? db).select().from(featureFlags).where(eq(featureFlags.key, key));
      return row ?? null;
    },

    /** Ordered by key. */
    async list(tx?: Executor): Promise<FeatureFlag[]> {
      return (tx ?? db).select().from(featureFlags).orderBy(asc(featureFlags.key));
    },

    async upsert(input: FeatureFlagInput, tx?: Executor): Promise<FeatureFlag> {
      const [row] = await (tx ?? db)
        .insert(featureFlags)
        .values({ key: input.key, enabled: input.enabled, description: input.description ?? null })
        .onConflictDoUpdate({
          target: featureFlags.key,
          set: {
            enabled: input.enabled,
            description: input.description === undefined ? sql`${featureFlags.description}` : input.description,
          },
        })
        .returning();
      return row!;
    },
  };
}

export type FeatureFlagRepository = ReturnType<typeof createFeatureFlagRepository>;
