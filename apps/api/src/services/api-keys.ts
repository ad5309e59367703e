import { type AnnounceCredentialsEnded, generateApiKey } from '@renamer/auth';
import { AppError } from '@renamer/contracts';
import type { ApiKeyRepository } from '@renamer/db';

const MAX_API_KEYS_PER_USER = 50;

export function createApiKeyService(deps: {
  apiKeys: Pick<ApiKeyRepository, 'create' | 'list' | 'delete'>;
  /** Closes the sockets opened with a key that was deleted, on every instance. */
  announceEnded: AnnounceCredentialsEnded;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());
  return {
    async create(userId: string, input: { name: string; expiresAt?: string }) {
      const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
      if (expiresAt && expiresAt <= now()) {
        throw new AppError('validation_failed', 'expiresAt must be in the future.', [
          { path: 'body.expiresAt', message: 'must be in the future' },
        ]);
      }
      if ((await deps.apiKeys.list(userId)).length >= MAX_API_KEYS_PER_USER) {
        throw new AppError(
          'conflict',
          `An account may hold at most ${MAX_API_KEYS_PER_USER} API keys; delete one first.`,
        );
      }
      const { key, prefix, hash } = generateApiKey();
      const created = await deps.apiKeys.create({ userId, name: input.name, prefix, keyHash: hash, expiresAt });
      return { created, key };
    },

    list: (userId: string) => deps.apiKeys.list(userId),

    async delete(userId: string, id: string) {
      if (!(await deps.apiKeys.delete(id, userId))) throw new AppError('not_found', 'No such API key.');
      await deps.announceEnded({ credentialId: id });
    },
  };
}

export type ApiKeyService = ReturnType<typeof createApiKeyService>;
