import { CookieJar } from './cookie-jar';

export interface SignInThroughDevIdpOptions {
  /** Where the flow starts: a relying party's login route, or an authorization URL of the provider. */
  startUrl: string | URL;
  email: string;
  name: string;
  /** Stops before following a redirect whose Location matches; without it the flow runs to the first non-redirect. */
  stopAt?: (location: URL) => boolean;
  /** Pass a jar to keep cookies across calls or read them afterwards (e.g. a relying party's session cookie). */
  cookieJar?: CookieJar;
  maxSteps?: number;
  /** The fetch to send requests with, e.g. undici's with an agent that trusts a test certificate (default: global). */
  fetch?: typeof fetch;
}

export interface SignInThroughDevIdpResult {
  /** The Location that matched `stopAt`, or undefined when the flow ended on a non-redirect response. */
  stoppedAt: URL | undefined;
  /** The last response: the redirect that was not followed, or the final response, body unread. */
  response: Response;
  cookieJar: CookieJar;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const FORM_TAG = /<form\b([^>]*)>/i;
const ACTION_ATTRIBUTE = /\baction="([^"]*)"/i;
const ERROR_PARAGRAPH = /<p role="alert"[^>]*>([^<]*)<\/p>/i;

/**
 * Signs in the way a browser would: requests `startUrl`, follows redirects across hosts with a cookie jar per host,
 * and when it meets the dev-idp sign-in form posts `email` and `name` to the form's action.
 */
export async function signInThroughDevIdp(options: SignInThroughDevIdpOptions): Promise<SignInThroughDevIdpResult> {
  const cookieJar = options.cookieJar ?? new CookieJar();
  const maxSteps = options.maxSteps ?? 20;
  let formPosted = false;
  let url = new URL(options.startUrl);
  const http = options.fetch ?? fetch;
  let response = await send(http, cookieJar, url);

  for (let step = 1; step <= maxSteps; step++) {
    const location = response.headers.get('location');
    if (REDIRECT_STATUSES.has(response.status) && location) {
      await response.body?.cancel();
      const next = new URL(location, url);
      if (options.stopAt?.(next)) return { stoppedAt: next, response, cookieJar };
      url = next;
      response = await send(http, cookieJar, url);
      continue;
    }

    if (!isHtml(response)) return { stoppedAt: undefined, response, cookieJar };
    const html = await response.text();
    const action = signInFormAction(html);
    if (!action) return { stoppedAt: undefined, response: copyWithBody(response, html), cookieJar };
    if (formPosted) {
      const reason = decodeHtml(ERROR_PARAGRAPH.exec(html)?.[1] ?? `status ${response.status}`);
      throw new Error(`dev-idp rejected the sign-in of ${options.email}: ${reason}`);
    }
    formPosted = true;
    url = new URL(action, url);
    response = await send(http, cookieJar, url, new URLSearchParams({ email: options.email, name: options.name }));
  }
  throw new Error(`sign-in did not finish within ${maxSteps} steps, last at ${url.href}`);
}

// Redirects are all followed with GET, as browsers do for the 302/303 responses of an OAuth flow.
async function send(http: typeof fetch, cookieJar: CookieJar, url: URL, form?: URLSearchParams): Promise<Response> {
  const headers = new Headers();
  const cookie = cookieJar.headerFor(url);
  if (cookie) headers.set('cookie', cookie);
  const response = await http(url, {
    method: form ? 'POST' : 'GET',
    headers,
    body: form,
    redirect: 'manual',
  });
  cookieJar.storeFrom(url, response);
  return response;
}

function isHtml(response: Response): boolean {
  return response.body !== null && (response.headers.get('content-type') ?? '').includes('text/html');
}

function signInFormAction(html: string): string | undefined {
  const formAttributes = FORM_TAG.exec(html)?.[1];
  if (formAttributes === undefined || !/name="email"/.test(html) || !/name="name"/.test(html)) return undefined;
  const action = ACTION_ATTRIBUTE.exec(formAttributes)?.[1];
  return action === undefined ? undefined : decodeHtml(action);
}

function copyWithBody(response: Response, body: string): Response {
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}

const HTML_ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'" };

function decodeHtml(text: string): string {
  return text.replace(/&(?:amp|lt|gt|quot|#39);/g, (entity) => HTML_ENTITIES[entity] ?? entity);
}
