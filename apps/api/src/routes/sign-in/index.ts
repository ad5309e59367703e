import oauth2, { type OAuth2Namespace } from '@fastify/oauth2';
import { mintCsrfToken } from '@renamer/auth';
import {
  AppError,
  type AuthProvider,
  CallbackQuery,
  CsrfResponse,
  LoginQuery,
  ProvidersResponse,
} from '@renamer/contracts';
import { safeReturnTo } from '@renamer/domain';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { GITHUB_SCOPES, type GithubOptions, readGithubIdentity } from '../../services/github-client';
import type { OidcClient, VerifiedIdentity } from '../../services/oidc-client';
import type { SignInService } from '../../services/sign-in';

export interface SignInRoutesOptions {
  oidc: OidcClient;
  /** GitHub sign-in, when GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET are set. */
  github?: GithubOptions;
  signIn: Pick<SignInService, 'signIn'>;
  publicUrl: string;
  secureCookies: boolean;
  sessionTtlSeconds: number;
}

const FLOW_COOKIE = 'sign_in_flow';
const FlowState = z.discriminatedUnion('provider', [
  z.object({ provider: z.literal('oidc'), state: z.string(), codeVerifier: z.string(), returnTo: z.string() }),
  // GitHub's state and PKCE verifier are @fastify/oauth2's own cookies.
  z.object({ provider: z.literal('github'), returnTo: z.string() }),
]);
type FlowState = z.infer<typeof FlowState>;

/** Public: signing in, and the CSRF token (bound to the session when there is one). */
export async function signInRoutes(app: FastifyInstance, options: SignInRoutesOptions) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['auth'];
  const flowCookie = {
    path: '/',
    httpOnly: true,
    secure: options.secureCookies,
    sameSite: 'lax' as const,
    signed: true,
  };
  const providers: AuthProvider[] = options.github ? ['oidc', 'github'] : ['oidc'];
  const callbackUri = new URL('/api/auth/callback', options.publicUrl).href;

  let github: OAuth2Namespace | undefined;
  if (options.github) {
    const base = options.github.baseUrl;
    await app.register(oauth2, {
      name: 'githubOAuth2',
      scope: GITHUB_SCOPES,
      credentials: {
        client: { id: options.github.clientId, secret: options.github.clientSecret },
        auth: {
          authorizeHost: base,
          authorizePath: '/login/oauth/authorize',
          tokenHost: base,
          tokenPath: '/login/oauth/access_token',
        },
        options: { authorizationMethod: 'body' },
      },
      callbackUri,
      pkce: 'S256',
      // The state and verifier cookies: signed, and with the attributes of every other cookie the API sets.
      cookie: { path: '/', httpOnly: true, secure: options.secureCookies, sameSite: 'lax', signed: true, maxAge: 600 },
    });
    github = (app as unknown as { githubOAuth2: OAuth2Namespace }).githubOAuth2;
  }

  typed.get(
    '/api/auth/providers',
    {
      schema: {
        tags,
        operationId: 'listSignInProviders',
        summary: 'The sign-in providers this server offers',
        response: { 200: ProvidersResponse },
      },
    },
    async () => ({ providers }),
  );

  /** Where the browser goes to sign in; the flow cookie remembers the provider and where to return. */
  async function start(provider: AuthProvider, request: FastifyRequest, reply: FastifyReply) {
    if (provider === 'github') {
      if (!github) throw new AppError('validation_failed', 'GitHub sign-in is not configured on this server.');
      const url = await github.generateAuthorizationUri(request, reply);
      return { url, flow: { provider } };
    }
    const { url, pending } = await options.oidc.start();
    return { url: url.href, flow: { provider, ...pending } };
  }

  /** Who signed in, by the provider the flow was started with. */
  async function finish(flow: FlowState, request: FastifyRequest, reply: FastifyReply): Promise<VerifiedIdentity> {
    if (flow.provider === 'github') {
      if (!github || !options.github) throw new Error('GitHub sign-in is not configured');
      const { token } = await github.getAccessTokenFromAuthorizationCodeFlow(request, reply);
      return readGithubIdentity(options.github, token.access_token);
    }
    return options.oidc.finish(new URL(request.url, options.publicUrl), flow);
  }

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
      const provider = request.query.provider ?? (providers.length === 1 ? providers[0]! : 'oidc');
      const { url, flow } = await start(provider, request, reply);
      const state: FlowState = { ...flow, returnTo: safeReturnTo(request.query.returnTo) };
      reply.setCookie(FLOW_COOKIE, JSON.stringify(state), { ...flowCookie, maxAge: 600 });
      return reply.redirect(url, 302);
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
      const identity = await finish(flow, request, reply).catch((err) => {
        // A refusal that says why (no verified email) reaches the person as it is.
        if (err instanceof AppError) throw err;
        request.log.warn({ err, provider: flow.provider }, 'sign-in callback refused');
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
