import type { DevIdentity } from './accounts';
import { escapeHtml } from './html';

const MAX_NAME_LENGTH = 100;
const MAX_EMAIL_LENGTH = 254;
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export interface SignInPageModel {
  action: string;
  email?: string;
  name?: string;
  error?: string;
}

export function renderSignInPage({ action, email = '', name = '', error }: SignInPageModel): string {
  const errorParagraph = error ? `<p role="alert" class="error">${escapeHtml(error)}</p>` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Sign in · Renamer development</title>
<style>
body{font-family:system-ui,sans-serif;max-width:24rem;margin:4rem auto;padding:0 1rem}
label{display:block;margin-top:1rem}
input{display:block;width:100%;box-sizing:border-box;padding:.4rem}
button{margin-top:1.5rem;padding:.5rem 1rem}
.error{color:#b00020}
</style>
</head>
<body>
<main>
<h1>Sign in</h1>
<p>Development identity provider: any email signs in, without a password.</p>
${errorParagraph}
<form method="post" action="${escapeHtml(action)}">
<label for="email">Email</label>
<input id="email" name="email" type="email" required maxlength="${MAX_EMAIL_LENGTH}" autocomplete="email" value="${escapeHtml(email)}">
<label for="name">Display name</label>
<input id="name" name="name" type="text" required maxlength="${MAX_NAME_LENGTH}" autocomplete="name" value="${escapeHtml(name)}">
<button type="submit">Sign in</button>
</form>
</main>
</body>
</html>
`;
}

export type SignInFormResult = { ok: true; identity: DevIdentity } | { ok: false; error: string };

export function parseSignInForm(form: URLSearchParams): SignInFormResult {
  const email = (form.get('email') ?? '').trim();
  const name = (form.get('name') ?? '').trim();
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL_PATTERN.test(email)) {
    return { ok: false, error: 'Enter a valid email address.' };
  }
  if (name.length === 0 || name.length > MAX_NAME_LENGTH) {
    return { ok: false, error: `Enter a display name of 1 to ${MAX_NAME_LENGTH} characters.` };
  }
  return { ok: true, identity: { email, name } };
}
