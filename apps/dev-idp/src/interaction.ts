import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, type Provider } from 'oidc-provider';
import type { AccountStore } from './accounts';
import { parseSignInForm, renderSignInPage } from './sign-in-page';

const INTERACTION_PATH = /^\/interaction\/([\w-]+)$/;
const MAX_FORM_BYTES = 16 * 1024;

export function interactionPath(uid: string): string {
  return `/interaction/${uid}`;
}

export function isInteractionRequest(req: IncomingMessage): boolean {
  return INTERACTION_PATH.test(new URL(req.url ?? '/', 'http://placeholder').pathname);
}

export async function handleInteraction(
  provider: Provider,
  accounts: AccountStore,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  try {
    if (req.method === 'GET') {
      const { uid } = await provider.interactionDetails(req, res);
      sendPage(res, 200, renderSignInPage({ action: interactionPath(uid) }));
    } else if (req.method === 'POST') {
      await finishSignIn(provider, accounts, req, res);
    } else {
      res.writeHead(405, { Allow: 'GET, POST' }).end();
    }
  } catch (error) {
    sendError(res, error);
  }
}

async function finishSignIn(
  provider: Provider,
  accounts: AccountStore,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const { uid, params } = await provider.interactionDetails(req, res);
  const form = new URLSearchParams(await readBody(req));
  const result = parseSignInForm(form);
  if (!result.ok) {
    const page = renderSignInPage({
      action: interactionPath(uid),
      email: form.get('email') ?? '',
      name: form.get('name') ?? '',
      error: result.error,
    });
    sendPage(res, 400, page);
    return;
  }
  const accountId = accounts.signIn(result.identity);
  const clientId = String(params.client_id);
  const grant = new provider.Grant({ accountId, clientId });
  if (typeof params.scope === 'string') grant.addOIDCScope(params.scope);
  const grantId = await grant.save();
  await provider.interactionFinished(
    req,
    res,
    { login: { accountId }, consent: { grantId } },
    { mergeWithLastSubmission: false },
  );
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_FORM_BYTES) throw new errors.InvalidRequest('form body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function sendPage(res: ServerResponse, status: number, html: string): void {
  res
    .writeHead(status, {
      'Content-Type': 'text/html; charset=utf-8',
      'Cache-Control': 'no-store',
      'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    })
    .end(html);
}

function sendError(res: ServerResponse, error: unknown): void {
  if (error instanceof errors.OIDCProviderError) {
    const message = error.error_description ?? error.message;
    res
      .writeHead(error.statusCode, { 'Content-Type': 'text/plain; charset=utf-8' })
      .end(`${error.error}: ${message}\n`);
    return;
  }
  console.error('dev-idp: interaction failed', error);
  res.writeHead(500, { 'Content-Type': 'text/plain; charset=utf-8' }).end('internal error\n');
}
