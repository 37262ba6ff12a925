import { describe, expect, it } from 'vitest';
import { userView } from '../../../src/console/views/access.view.js';
import type { Viewer } from '../../../src/console/views/console-view.js';
import {
  choosePasswordView,
  deadInvitationView,
  invitationConfirmView,
  usersPageView,
} from '../../../src/console/views/invite.view.js';
import { renderPage } from '../../../src/pages/render.js';
import { LANGUAGES } from '../../../src/variants/variant.types.js';

const admin = (language: Viewer['language'] = 'enUS'): Viewer => ({
  language,
  user: { firstname: 'Ada', lastname: 'Admin', email: 'ada@example.test', role: 'admin' },
  csrf: 'token',
  path: '/console/access/users',
});
const render = (view: { template: string; model: unknown }) =>
  renderPage(view.template, view.model as never, '/console/assets');
const invitee = {
  id: 'u2',
  email: 'ines@example.test',
  firstname: '<i>Ines</i>',
  lastname: 'Invitee',
  role: 'user' as const,
  deactivated: null,
};
const open = {
  sent: '2026-11-26T04:00:00+00:00',
  expires: '2026-12-03T04:00:00+00:00',
  language: 'enUS' as const,
};

describe('the invitation views', () => {
  it('shows the form under the users list, the invited status, and each field’s problem', () => {
    const page = render(
      usersPageView(admin('nlNL'), {
        users: [invitee],
        invitations: new Map([['u2', { ...open, expired: false }]]),
      }),
    );
    expect(page).toContain('Een gebruiker uitnodigen');
    expect(page).toContain('<td>Uitgenodigd</td>');
    expect(page).toContain('<option value="nlNL" selected>Nederlands</option>');
    expect(page).toContain('&lt;i&gt;Ines&lt;/i&gt;');
    expect(page).toContain('name="csrf" value="token"');

    const refused = render(
      usersPageView(admin(), {
        users: [invitee],
        invitations: new Map(),
        values: { email: '', firstname: ' ', lastname: '"x"', admin: true, language: 'frFR' },
        problems: [
          { field: 'email', text: 'is required' },
          { field: 'firstname', text: 'must not be empty' },
          { field: 'lastname', text: 'must be one line, without control characters' },
        ],
      }),
    );
    expect(refused).toContain('<title>Error: Users – Assay console</title>');
    expect(refused).toContain('<a href="#invite-email">Enter their e-mail address</a>');
    expect(refused).toContain('<a href="#invite-firstname">Enter their first name</a>');
    expect(refused).toContain('must be one line, without control characters');
    expect(refused).toContain('value="&quot;x&quot;"');
    expect(refused).toContain('<option value="frFR" selected>');
    expect(refused).toMatch(/id="invite-admin"[^>]* checked/);
  });

  it('says on the user’s page when the invitation was sent and expires, and offers resend and cancel', () => {
    const pending = render(
      userView(admin(), { user: invitee, self: false, invitation: { ...open, expired: false } }),
    );
    expect(pending).toContain('Sent Nov 26, 2026, 04:00 UTC, expires Dec 3, 2026, 04:00 UTC');
    expect(pending).toContain('href="/console/access/users/u2/invitation/resend"');
    expect(pending).toContain('href="/console/access/users/u2/invitation/cancel"');
    const expired = render(
      userView(admin(), { user: invitee, self: false, invitation: { ...open, expired: true } }),
    );
    expect(expired).toContain('Invitation expired');
    expect(expired).toContain('expired Dec 3, 2026, 04:00 UTC');
    // A deactivated user's invitation can be cancelled, not resent.
    const off = render(
      userView(admin(), {
        user: { ...invitee, deactivated: '2026-11-27T00:00:00+00:00' },
        self: false,
        invitation: { ...open, expired: false },
      }),
    );
    expect(off).not.toContain('/invitation/resend');
    expect(off).toContain('/invitation/cancel');
    const accepted = render(userView(admin(), { user: invitee, self: false }));
    expect(accepted).not.toContain('/invitation/');
    const confirm = render(invitationConfirmView(admin(), invitee, 'cancel'));
    expect(confirm).toContain('Cancel the invitation of &lt;i&gt;Ines&lt;/i&gt; Invitee?');
    expect(confirm).toContain('action="/console/access/users/u2/invitation/cancel"');
  });

  it('words the password page and its problems in every language, and the dead link page', () => {
    for (const language of LANGUAGES) {
      const viewer: Viewer = { language, path: '/console/invitation/x' };
      const base = {
        action: '/console/invitation/x',
        csrf: 'form',
        name: 'Ines',
        email: 'ines@example.test',
        expires: open.expires,
      };
      const clean = render(choosePasswordView(viewer, base));
      expect(clean, language).toContain('autocomplete="new-password"');
      expect(clean, language).toContain('name="csrf" value="form"');
      expect(clean, language).toContain('12');
      for (const problem of ['missing', 'too-short', 'mismatch'] as const) {
        const page = render(choosePasswordView(viewer, { ...base, problem }));
        expect(page, `${language} ${problem}`).toContain(
          problem === 'mismatch' ? 'href="#confirm"' : 'href="#password"',
        );
      }
      expect(render(deadInvitationView(viewer)), language).toContain('href="/console/sign-in"');
    }
    expect(
      render(
        choosePasswordView(
          { language: 'esES', path: '/' },
          {
            action: '/a',
            csrf: 'c',
            name: 'I',
            email: 'e@x.test',
            expires: open.expires,
            problem: 'too-short',
          },
        ),
      ),
    ).toContain('La contraseña debe tener al menos 12 caracteres');
  });
});
