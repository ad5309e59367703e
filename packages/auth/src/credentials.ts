import { type ApiKeyRepository, LAST_USED_RESOLUTION_MS, type SessionRepository } from '@renamer/db';
import type { FastifyBaseLogger, FastifyRequest } from 'fastify';
import { hashApiKey, looksLikeApiKey } from './api-key-secret';
import type { CredentialFailure, Principal } from './principal';

export const SESSION_COOKIE = 'session';

export interface SessionClaims {
  sid: string;
  sub: string;
}

export interface CredentialDeps {
  sessions: Pick<SessionRepository, 'findActive'>;
  apiKeys: Pick<ApiKeyRepository, 'findActiveByHash' | 'touchLastUsed'>;
  verifySessionToken: (token: string) => SessionClaims;
  now?: () => Date;
}

type Resolution = { principal: Principal } | { failure: CredentialFailure } | null;

/**
 * Reads the credentials a request presents (an API key in `Authorization: Bearer`, else the session
 * cookie) and checks them against the database, so revocation, expiry and bans take effect at once.
 * `null` means none were presented.
 */
export function createCredentialResolver(deps: CredentialDeps) {
  const now = deps.now ?? (() => new Date());

  async function fromApiKey(key: string, log: FastifyBaseLogger): Promise<Resolution> {
    if (!looksLikeApiKey(key)) return { failure: 'invalid' };
    const at = now();
    const found = await deps.apiKeys.findActiveByHash(hashApiKey(key), at);
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
    return { principal: { user: found.user, via: 'apiKey', apiKeyId: found.apiKey.id } };
  }

  async function fromSession(token: string): Promise<Resolution> {
    let claims: SessionClaims;
    try {
      claims = deps.verifySessionToken(token);
    } catch {
      return { failure: 'invalid' };
    }
    const found = await deps.sessions.findActive(claims.sid, now());
    if (!found || found.user.id !== claims.sub) return { failure: 'invalid' };
    if (found.user.bannedAt) return { failure: 'banned' };
    return { principal: { user: found.user, via: 'session', sessionId: found.session.id } };
  }

  return async function resolveCredentials(request: FastifyRequest): Promise<Resolution> {
    const authorization = request.headers.authorization;
    if (authorization) {
      const [scheme, value] = authorization.split(' ');
      if (scheme?.toLowerCase() !== 'bearer' || !value) return { failure: 'invalid' };
      return fromApiKey(value.trim(), request.log);
    }
    const token = request.cookies[SESSION_COOKIE];
    return token ? fromSession(token) : null;
  };
}
