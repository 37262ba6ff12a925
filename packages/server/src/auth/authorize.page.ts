import type { AuthorizeParams } from './authorize.service.js';

const escapeHtml = (value: string) => value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;margin:0;color:#0b0c0c;background:#f3f2f1}
main{max-width:30rem;margin:2rem auto;background:#fff;padding:1.5rem 2rem;border-top:6px solid #1d70b8}
h1{font-size:1.6rem;margin-top:0}label{display:block;font-weight:600;margin-top:1rem}
input[type=email],input[type=password]{width:100%;box-sizing:border-box;font:inherit;padding:.4rem;border:2px solid #0b0c0c}
input:focus,button:focus{outline:3px solid #fd0;outline-offset:0}
.actions{margin-top:1.5rem;display:flex;gap:1rem}button{font:inherit;padding:.5rem 1rem;border:0;cursor:pointer}
.approve{background:#00703c;color:#fff}.deny{background:#f3f2f1;color:#0b0c0c;border:2px solid #b1b4b6}
.error{border:4px solid #d4351c;padding:.75rem 1rem;margin-bottom:1rem}.error h2{margin:0;font-size:1.1rem}`;

function layout(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)} - Assay</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`;
}

/** The sign-in and approval page of the Authorization Code flow. */
export function signInPage(input: {
  clientName: string;
  scopes: string[];
  params: AuthorizeParams;
  error?: string;
  email?: string;
}): string {
  const hidden = Object.entries(input.params)
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value as string)}">`)
    .join('');
  const error = input.error
    ? `<div class="error" role="alert" tabindex="-1"><h2>There is a problem</h2><p>${escapeHtml(input.error)}</p></div>`
    : '';
  return layout(
    'Sign in',
    `${error}<h1>Sign in to allow ${escapeHtml(input.clientName)}</h1>
<p>${escapeHtml(input.clientName)} asks to use Assay on your behalf, with access to: <strong>${input.scopes.map(escapeHtml).join(', ')}</strong>.</p>
<form method="post">${hidden}
<label for="email">E-mail address</label><input id="email" name="email" type="email" autocomplete="username" required value="${escapeHtml(input.email ?? '')}">
<label for="password">Password</label><input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="actions"><button class="approve" type="submit" name="decision" value="approve">Sign in and allow</button>
<button class="deny" type="submit" name="decision" value="deny" formnovalidate>Deny</button></div></form>`,
  );
}

/** A problem that cannot be sent back to the application. */
export function errorPage(message: string): string {
  return layout('Cannot sign in', `<h1>Cannot sign in</h1><p>${escapeHtml(message)}</p>`);
}
