import { AppError } from '@renamer/contracts';
import { z } from 'zod';
import type { VerifiedIdentity } from './oidc-client';

export interface GithubOptions {
  clientId: string;
  clientSecret: string;
  /** Where `/login/oauth/authorize` and `/login/oauth/access_token` are (https://github.com). */
  baseUrl: string;
  /** Where `/user` and `/user/emails` are (https://api.github.com). */
  apiUrl: string;
}

/** GitHub's scopes: the profile (for the name) and the email addresses (for the verified primary one). */
export const GITHUB_SCOPES = ['read:user', 'user:email'];
const API_TIMEOUT_MS = 10_000;

const GithubUser = z.object({ id: z.number().int(), login: z.string(), name: z.string().nullish() });
const GithubEmails = z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() }));

/** The `provider` GitHub identities are stored under: the origin of GITHUB_BASE_URL (an Enterprise server is another). */
export const githubProvider = (options: Pick<GithubOptions, 'baseUrl'>) => new URL(options.baseUrl).origin;

/**
 * Reads who signed in from GitHub's REST API with the access token of the code flow: the numeric id (a login can be
 * renamed), the name, and the primary email only when GitHub has verified it; without one the sign-in is refused.
 */
export async function readGithubIdentity(
  options: Pick<GithubOptions, 'baseUrl' | 'apiUrl'>,
  accessToken: string,
): Promise<VerifiedIdentity> {
  const get = async <T>(path: string, schema: z.ZodType<T>): Promise<T> => {
    const response = await fetch(new URL(path, withSlash(options.apiUrl)), {
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${accessToken}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': 'renamer',
      },
      redirect: 'error',
      signal: AbortSignal.timeout(API_TIMEOUT_MS),
    });
    if (!response.ok) throw new Error(`GitHub answered ${response.status} for ${path}`);
    return schema.parse(await response.json());
  };
  const user = await get('user', GithubUser);
  const emails = await get('user/emails', GithubEmails);
  const primary = emails.find((entry) => entry.primary && entry.verified);
  if (!primary) {
    throw new AppError(
      'unauthenticated',
      'Your GitHub account has no verified primary email address: verify one on GitHub, then sign in again.',
    );
  }
  return {
    issuer: githubProvider(options),
    subject: String(user.id),
    email: primary.email,
    emailVerified: true,
    name: user.name ?? undefined,
  };
}

const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);
