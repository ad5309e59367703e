import { mintCsrfToken } from '@renamer/auth';
import { AppError, CallbackQuery, CsrfResponse, LoginQuery } from '@renamer/contracts';
import { safeReturnTo } from '@renamer/domain';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { OidcClient } from '../../services/oidc-client';
import type { SignInService } from '../../services/sign-in';

export interface SignInRoutesOptions {
  oidc: OidcClient;
  signIn: Pick<SignInService, 'signIn'>;
  publicUrl: string;
  secureCookies: boolean;
  sessionTtlSeconds: number;
}

const FLOW_COOKIE = 'oidc_flow';
const FlowState = z.object({ state: z.string(), codeVerifier: z.string(), returnTo: z.string() });

/** Public: signing in, and the CSRF token (bound to the session when there is one). */
export async function signInRoutes(app: FastifyInstance, options: SignInRoutesOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  const flowCookie = {
    path: '/api/auth',
    httpOnly: true,
    secure: options.secureCookies,
    sameSite: 'lax' as const,
    signed: true,
  };

  typed.get(
    '/api/auth/login',
    {
      schema: {
        tags,
        operationId: 'signIn',
        summary: 'Start signing in at the identity provider',
        querystring: LoginQuery,
        response: { 302: z.null().describe('To the identity provider.') },
      },
    },
    async (request, reply) => {
      const { url, pending } = await options.oidc.start();
      const flow = { ...pending, returnTo: safeReturnTo(request.query.returnTo) };
      reply.setCookie(FLOW_COOKIE, JSON.stringify(flow), { ...flowCookie, maxAge: 600 });
      return reply.redirect(url.href, 302);
    },
  );

  typed.get(
    '/api/auth/callback',
    {
      schema: {
        tags,
        operationId: 'finishSignIn',
        summary: 'Finish signing in: the identity provider sends the browser here',
        querystring: CallbackQuery,
        response: { 302: z.null().describe('To the `returnTo` path, with the `session` cookie set.') },
        errors: ['unauthenticated', 'banned'],
      },
    },
    async (request, reply) => {
      const flow = readFlow(request.cookies[FLOW_COOKIE], (value) => reply.unsignCookie(value));
      reply.clearCookie(FLOW_COOKIE, flowCookie);
      if (!flow) throw new AppError('unauthenticated', 'The sign-in expired or was not started here; sign in again.');
      if (request.query.error) {
        throw new AppError('unauthenticated', `The identity provider refused the sign-in (${request.query.error}).`);
      }
      const callbackUrl = new URL(request.url, options.publicUrl);
      const identity = await options.oidc.finish(callbackUrl, flow).catch((err) => {
        request.log.warn({ err }, 'sign-in callback refused');
        throw new AppError('unauthenticated', 'The sign-in could not be verified; sign in again.');
      });
      const { user, session, created } = await options.signIn.signIn(identity, {
        userAgent: request.headers['user-agent'],
        ip: request.ip,
      });
      request.log.info({ userId: user.id, created }, 'signed in');
      await app.issueSession(reply, { sid: session.id, sub: user.id }, options.sessionTtlSeconds);
      return reply.redirect(flow.returnTo, 302);
    },
  );

  typed.get(
    '/api/auth/csrf',
    {
      schema: {
        tags,
        operationId: 'getCsrfToken',
        summary: 'A CSRF token for the caller’s session (or for a visitor not signed in)',
        response: { 200: CsrfResponse },
      },
    },
    async (request, reply) => ({
      token: mintCsrfToken(request, reply),
    }),
  );
}

function readFlow(raw: string | undefined, unsign: (value: string) => { valid: boolean; value: string | null }) {
  if (!raw) return null;
  const unsigned = unsign(raw);
  if (!unsigned.valid || !unsigned.value) return null;
  try {
    const parsed = FlowState.safeParse(JSON.parse(unsigned.value));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
