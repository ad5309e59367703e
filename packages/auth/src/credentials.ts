import {
  type ApiKey,
  type ApiKeyRepository,
  LAST_USED_RESOLUTION_MS,
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
  sessions: Pick<SessionRepository, 'findActive'>;
  apiKeys: Pick<ApiKeyRepository, 'findActiveByHash' | 'touchLastUsed'>;
  verifySessionToken: (token: string) => SessionClaims;
  now?: () => Date;
}

/**
 * A read that a route asks to be made by the very statement that checks the caller's credential, so that the
 * request takes one database round trip instead of two. Each lookup returns what `findActiveByHash` or
 * `findActive` would (the active credential with its user, null otherwise) and `read`, which must be joined on
 * that user: nothing of anyone else's can come back, and nothing of it is used unless the credential holds.
 */
export interface CredentialRead<T> {
  byApiKey(keyHash: string, now: Date): Promise<{ apiKey: ApiKey; user: User; read: T } | null>;
  bySession(sessionId: string, now: Date): Promise<{ session: Session; user: User; read: T } | null>;
}

/** `read` is there when the request's route asked for a `CredentialRead`. */
type Resolution = { principal: Principal; read?: { value: unknown } } | { failure: CredentialFailure } | null;

/** A credential's row with its user, and what was read with it when a read was asked for. */
type Found<Credential> = (Credential & { user: User; read?: unknown }) | null;

const readOf = (found: { read?: unknown }) => ('read' in found ? { value: found.read } : undefined);

/**
 * Reads the credentials a request presents (an API key in `Authorization: Bearer`, else the session
 * cookie) and checks them against the database, so revocation, expiry and bans take effect at once.
 * `null` means none were presented. With a `CredentialRead`, its statement checks them and makes its read.
 */
export function createCredentialResolver(deps: CredentialDeps) {
  const now = deps.now ?? (() => new Date());

  async function fromApiKey(key: string, log: FastifyBaseLogger, read?: CredentialRead<unknown>): Promise<Resolution> {
    if (!looksLikeApiKey(key)) return { failure: 'invalid' };
    const at = now();
    const hash = hashApiKey(key);
    const found: Found<{ apiKey: ApiKey }> = read
      ? await read.byApiKey(hash, at)
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
      read: readOf(found),
    };
  }

  async function fromSession(token: string, read?: CredentialRead<unknown>): Promise<Resolution> {
    let claims: SessionClaims;
    try {
      claims = deps.verifySessionToken(token);
    } catch {
      return { failure: 'invalid' };
    }
    const found: Found<{ session: Session }> = read
      ? await read.bySession(claims.sid, now())
      : await deps.sessions.findActive(claims.sid, now());
    if (!found || found.user.id !== claims.sub) return { failure: 'invalid' };
    if (found.user.bannedAt) return { failure: 'banned' };
    return {
      principal: { user: found.user, via: 'session', sessionId: found.session.id },
      read: readOf(found),
    };
  }

  return async function resolveCredentials(
    request: FastifyRequest,
    read?: CredentialRead<unknown>,
  ): Promise<Resolution> {
    const authorization = request.headers.authorization;
    if (authorization) {
      const [scheme, value] = authorization.split(' ');
      if (scheme?.toLowerCase() !== 'bearer' || !value) return { failure: 'invalid' };
      return fromApiKey(value.trim(), request.log, read);
    }
    const token = request.cookies[SESSION_COOKIE];
    return token ? fromSession(token, read) : null;
  };
}
