import { describe, expect, it } from 'vitest';
import type { ApiKeyListing, ClientListing } from '../../../src/auth/auth.repository.js';
import { ScopesBeyondRole } from '../../../src/auth/scope-rules.js';
import { accessStrings } from '../../../src/console/access-strings.js';
import { REFUSALS } from '../../../src/console/refusal-strings.js';
import {
  clientFormView,
  clientsView,
  clientView,
  confirmView,
  formProblems,
  keyFormView,
  keysView,
  problemOf,
  secretShownView,
  userConfirmView,
  userView,
} from '../../../src/console/views/access.view.js';
import type { Viewer } from '../../../src/console/views/console-view.js';
import { renderPage } from '../../../src/pages/render.js';
import { LANGUAGES } from '../../../src/variants/variant.types.js';

const viewer = (role: 'admin' | 'user' = 'admin', language: Viewer['language'] = 'enUS'): Viewer => ({
  language,
  user: { firstname: 'Ada', lastname: 'Admin', email: 'ada@example.test', role },
  csrf: 'token',
  path: '/console/access/clients',
});
const render = (view: { template: string; model: unknown }) =>
  renderPage(view.template, view.model as never, '/console/assets');

const client: ClientListing = {
  id: 'c1',
  name: 'Export <b>',
  scopes: 'members reports',
  redirect_uris: ['https://app.example.test/back'],
  user_id: 'u1',
  user_email: 'owner@example.test',
  created: '2026-11-26T02:00:00+00:00',
  updated: '2026-11-26T02:00:00+00:00',
  registration: null,
};
const key: ApiKeyListing = {
  id: 'k1',
  name: '',
  scopes: 'reports',
  user_email: 'owner@example.test',
  created: '2026-11-26T02:00:00+00:00',
  revoked: null,
};

describe('access views', () => {
  it('names a service refusal’s field, in the viewer’s words where the console has them', () => {
    const a = accessStrings('frFR');
    expect(problemOf(a, 'name: must not be empty', 'frFR')).toEqual({ field: 'name', text: a.nameMissing });
    expect(problemOf(a, 'scopes: name at least one (known: members)', 'frFR')).toEqual({
      field: 'scopes',
      text: a.scopesMissing,
    });
    // The others in the viewer's language (refusals.ts), the value as it was.
    const fragment = REFUSALS.find((text) => text.en === 'must not have a fragment: "{uri}"');
    expect(problemOf(a, 'redirect-uri: must not have a fragment: "x#y"', 'frFR')).toEqual({
      field: 'redirects',
      text: fragment?.frFR.replace('{uri}', 'x#y'),
    });
  });

  it('offers only the scopes the viewer’s role may use, and names refused ones next to the scopes', () => {
    for (const form of [clientFormView, keyFormView]) {
      expect(render(form(viewer('user')))).not.toContain('value="audit"');
      expect(render(form(viewer('user')))).toContain('value="webhooks"');
      expect(render(form(viewer('admin')))).toContain('value="audit"');
    }
    const words = REFUSALS.find((text) => text.en === 'only an admin may use {scopes}');
    expect(formProblems('esES', new ScopesBeyondRole(['audit']))).toEqual([
      { field: 'scopes', text: words?.esES.replace('{scopes}', 'audit') },
    ]);
    expect(formProblems('enUS', new ScopesBeyondRole(['audit']))).toEqual([
      { field: 'scopes', text: 'only an admin may use audit' },
    ]);
  });

  it('lists the owner only for an admin, and scopes in plain words', () => {
    const forAdmin = render(clientsView(viewer('admin'), { clients: [client] }));
    expect(forAdmin).toContain('owner@example.test');
    expect(forAdmin).toContain('Read and change members; Read results and reports');
    expect(forAdmin).toContain('Export &lt;b&gt;');
    const forUser = render(clientsView(viewer('user'), { clients: [client] }));
    expect(forUser).not.toContain('owner@example.test');
    expect(render(clientsView(viewer(), { clients: [] }))).toContain('There are no clients yet.');
    expect(render(clientView(viewer('user'), client))).not.toContain('owner@example.test');
  });

  it('marks a client that registered itself, in every language, with no rotation offered', () => {
    for (const language of LANGUAGES) {
      const a = accessStrings(language);
      const registered = { ...client, registration: 'claimed' as const };
      expect(render(clientsView(viewer('admin', language), { clients: [registered] }))).toContain(
        `<strong class="tag">${a.registered}</strong>`,
      );
      const page = render(clientView(viewer('admin', language), registered));
      expect(page).toContain(a.registeredHint.split(':')[0]);
      expect(page).not.toContain('/rotate');
      expect(render(clientView(viewer('admin', language), client))).toContain('/rotate');
      expect(render(clientView(viewer('admin', language), client))).not.toContain(a.registered);
      const unclaimed = { ...client, registration: 'unclaimed' as const };
      const held = render(clientView(viewer('admin', language), unclaimed));
      expect(held).toContain(a.unclaimed);
      expect(held).not.toContain('owner@example.test');
    }
  });

  it('shows a secret once with GOV.UK Notify’s words, in every language', () => {
    for (const language of LANGUAGES) {
      const page = render(
        secretShownView(viewer('admin', language), { kind: 'client', id: 'c1', name: 'X', secret: 's3cret' }),
      );
      expect(page).toContain(accessStrings(language).secretWarning);
      expect(page).toContain('<code class="access-secret">s3cret</code>');
    }
  });

  it('keeps the form’s answers and marks the field in error', () => {
    const page = render(
      clientFormView(viewer(), {
        values: { name: 'N', scopes: ['reports'], redirects: 'x' },
        problems: [{ field: 'redirects', text: 'not an absolute URI: "x"' }],
      }),
    );
    expect(page).toContain('href="#redirects"');
    expect(page).toMatch(/value="reports" checked/);
    expect(page).not.toMatch(/value="members" checked/);
  });

  it('offers revoke only for an active key, and names an unnamed key by its id', () => {
    const page = render(
      keysView(viewer(), { keys: [key, { ...key, id: 'k2', revoked: '2026-11-26T03:00:00+00:00' }] }),
    );
    expect(page.match(/\/revoke"/g)).toHaveLength(1);
    expect(page).toContain('<bdi>k1</bdi>');
    const confirm = render(
      confirmView(viewer(), {
        kind: 'revoke-key',
        name: 'k1',
        action: '/console/access/keys/k1/revoke',
        cancel: '/x',
      }),
    );
    expect(confirm).toContain('Revoke k1?');
    expect(confirm).toContain('name="csrf" value="token"');
  });

  it('offers the actions that apply to a user, none on one’s own page', () => {
    const user = {
      id: 'u1',
      email: 'u@example.test',
      firstname: 'Una',
      lastname: '',
      role: 'user' as const,
      deactivated: null,
    };
    const page = render(userView(viewer(), { user, self: false }));
    expect(page).toContain('/console/access/users/u1/make-admin');
    expect(page).toContain('/console/access/users/u1/deactivate');
    const gone = render(
      userView(viewer(), {
        user: { ...user, role: 'admin', deactivated: '2026-11-26T02:00:00+00:00' },
        self: false,
      }),
    );
    expect(gone).toContain('/console/access/users/u1/remove-admin');
    expect(gone).toContain('/console/access/users/u1/reactivate');
    expect(render(userView(viewer(), { user, self: true }))).not.toContain('/console/access/users/u1/');
    const confirm = render(userConfirmView(viewer('admin', 'nlNL'), user, 'deactivate'));
    expect(confirm).toContain('Una deactiveren?');
    expect(confirm).toContain('action="/console/access/users/u1/deactivate"');
  });
});
