import {
  type ApiKey,
  type ApiKeyRepository,
  LAST_USED_RESOLUTION_MS,
  type ReadAlongside,
  type ReadAlongsideResult,
  type Session,
  type SessionRepository,
  type User,
} from '@renamer/db';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { hashApiKey, looksLikeApiKey } from './api-key-secret';
import type { CredentialFailure, Principal } from './principal';

export const SESSION_COOKIE = 'session';

export interface SessionClaims {
  sid: string;
  sub: string;
}

export interface CredentialDeps {
  sessions: Pick<SessionRepository, 'findActive' | 'findActiveReading'>;
  apiKeys: Pick<ApiKeyRepository, 'findActiveByHash' | 'findActiveByHashReading' | 'touchLastUsed'>;
  verifySessionToken: (token: string) => SessionClaims;
  now?: () => Date;
}

type Resolution = { principal: Principal; alongside?: ReadAlongsideResult } | { failure: CredentialFailure } | null;

/**
 * Reads the credentials a request presents (an API key in `Authorization: Bearer`, else the session
 * cookie) and checks them against the database, so revocation, expiry and bans take effect at once.
 * `null` means none were presented. With `alongside`, the same statement also makes that read of the
 * caller's (see `ReadAlongside`).
 */
/** A credential's row with its user, and the read made alongside when one was asked for. */
type Found<Credential> = (Credential & { user: User; alongside?: ReadAlongsideResult }) | null;

export function createCredentialResolver(deps: CredentialDeps) {
  const now = deps.now ?? (() => new Date());

  async function fromApiKey(key: string, log: FastifyBaseLogger, alongside?: ReadAlongside): Promise<Resolution> {
    if (!looksLikeApiKey(key)) return { failure: 'invalid' };
    const at = now();
    const hash = hashApiKey(key);
    const found: Found<{ apiKey: ApiKey }> = alongside
      ? await deps.apiKeys.findActiveByHashReading(hash, at, alongside)
      : await deps.apiKeys.findActiveByHash(hash, at);
    if (!found) return { failure: 'invalid' };
    if (found.user.bannedAt) return { failure: 'banned' };
    const { lastUsedAt } = found.apiKey;
    // Off the request's path, and only when the row read says it is due: the UPDATE's own condition settles
    // requests that race for the same minute, on any instance.
    if (!lastUsedAt || at.getTime() - lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
      deps.apiKeys.touchLastUsed(found.apiKey.id, at).catch((err) => {
        log.warn({ err, apiKeyId: found.apiKey.id }, 'last use of an API key not recorded');
      });
    }
    return {
      principal: { user: found.user, via: 'apiKey', apiKeyId: found.apiKey.id },
      alongside: found.alongside,
    };
  }

  async function fromSession(token: string, alongside?: ReadAlongside): Promise<Resolution> {
    let claims: SessionClaims;
    try {
      claims = deps.verifySessionToken(token);
    } catch {
      return { failure: 'invalid' };
    }
    const found: Found<{ session: Session }> = alongside
      ? await deps.sessions.findActiveReading(claims.sid, now(), alongside)
      : await deps.sessions.findActive(claims.sid, now());
    if (!found || found.user.id !== claims.sub) return { failure: 'invalid' };
    if (found.user.bannedAt) return { failure: 'banned' };
    return {
      principal: { user: found.user, via: 'session', sessionId: found.session.id },
      alongside: found.alongside,
    };
  }

  return async function resolveCredentials(request: FastifyRequest, alongside?: ReadAlongside): Promise<Resolution> {
    const authorization = request.headers.authorization;
    if (authorization) {
      const [scheme, value] = authorization.split(' ');
      if (scheme?.toLowerCase() !== 'bearer' || !value) return { failure: 'invalid' };
      return fromApiKey(value.trim(), request.log, alongside);
    }
    const token = request.cookies[SESSION_COOKIE];
    return token ? fromSession(token, alongside) : null;
  };
}
