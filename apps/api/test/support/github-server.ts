import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface GithubAccount {
  id: number;
  login: string;
  name: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

interface PendingCode {
  account: GithubAccount;
  clientId: string;
  redirectUri: string;
  challenge: string;
}

/**
 * A GitHub-shaped OAuth server on loopback, as small as GitHub's side of a web-flow sign-in: `/login/oauth/authorize`
 * sends the browser straight back with a code and the state (as GitHub does once the app is authorised),
 * `/login/oauth/access_token` trades the code for a token checking the client secret, redirect URI and PKCE verifier,
 * and `/user` and `/user/emails` answer for that token. Who signs in is `signInAs`'s account.
 */
export async function startGithubServer(client: { clientId: string; clientSecret: string }) {
  let next: GithubAccount | undefined;
  const codes = new Map<string, PendingCode>();
  const tokens = new Map<string, GithubAccount>();
  const authorizeRequests: URL[] = [];

  const server = createServer((req, res) => {
    handle(req, res).catch((err) => json(res, 500, { message: String(err) }));
  });

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      authorizeRequests.push(url);
      const redirectUri = url.searchParams.get('redirect_uri') ?? '';
      if (url.searchParams.get('client_id') !== client.clientId || !next)
        return json(res, 404, { message: 'Not Found' });
      const code = randomBytes(10).toString('hex');
      codes.set(code, {
        account: next,
        clientId: client.clientId,
        redirectUri,
        challenge: url.searchParams.get('code_challenge') ?? '',
      });
      const back = new URL(redirectUri);
      back.searchParams.set('code', code);
      back.searchParams.set('state', url.searchParams.get('state') ?? '');
      res.writeHead(302, { location: back.href }).end();
      return;
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const raw = await readBody(req);
      const body = (req.headers['content-type'] ?? '').includes('json')
        ? new URLSearchParams(JSON.parse(raw) as Record<string, string>)
        : new URLSearchParams(raw);
      const pending = codes.get(body.get('code') ?? '');
      codes.delete(body.get('code') ?? '');
      const verifier = body.get('code_verifier') ?? '';
      const challenge = createHash('sha256').update(verifier).digest('base64url');
      if (
        !pending ||
        body.get('client_id') !== pending.clientId ||
        body.get('client_secret') !== client.clientSecret ||
        body.get('redirect_uri') !== pending.redirectUri ||
        challenge !== pending.challenge
      ) {
        // GitHub answers a bad exchange with 200 and an error field.
        return json(res, 200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect.' });
      }
      const token = `gho_${randomBytes(16).toString('hex')}`;
      tokens.set(token, pending.account);
      return json(res, 200, { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    const account = tokens.get((req.headers.authorization ?? '').replace(/^(Bearer|token) /i, ''));
    if (req.method === 'GET' && (url.pathname === '/user' || url.pathname === '/user/emails')) {
      if (!account) return json(res, 401, { message: 'Bad credentials' });
      if (url.pathname === '/user') return json(res, 200, { id: account.id, login: account.login, name: account.name });
      return json(
        res,
        200,
        account.emails.map((email) => ({ ...email, visibility: email.primary ? 'private' : null })),
      );
    }
    json(res, 404, { message: 'Not Found' });
  }

  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    authorizeRequests,
    /** The account the next authorization signs in as. */
    signInAs(account: GithubAccount) {
      next = account;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function json(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
