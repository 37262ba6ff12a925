import { describe, expect, it } from 'vitest';
import type { PlatformMailParams } from '../../src/mail/mail.types.js';
import { expiryText } from '../../src/mail/platform-mail.js';
import { renderMail } from '../../src/mail/render.js';
import { LANGUAGES } from '../../src/variants/variant.types.js';

// A platform mail needs no variant: the registry is empty on purpose.
const variants = { list: () => [], get: () => undefined };
const FSI = '\u2068';
const PDI = '\u2069';

function params(change: Partial<PlatformMailParams> = {}): PlatformMailParams {
  return {
    stage: 'user_invitation',
    language: 'enUS',
    template: 'platform',
    recipient: { firstname: 'Ines', lastname: 'Invitee', email: 'ines@example.test' },
    link: 'https://assay.example.test/console/invitation/abc',
    sender: 'Acme HR',
    inviter: { firstname: 'Ada', lastname: 'Admin', email: 'ada@example.test' },
    expires: '2026-12-03T09:30:00+00:00',
    ...change,
  };
}

/** The invitation to become a user, rendered without any campaign or variant. */
describe('the platform mail user_invitation', () => {
  it('is written in each of the four languages, with the link, its expiry, the inviter and the sender', () => {
    const subjects = new Set<string>();
    for (const language of LANGUAGES) {
      const mail = renderMail(variants, params({ language }));
      subjects.add(mail.subject);
      for (const part of [mail.text, mail.html]) {
        expect(part, language).toContain('https://assay.example.test/console/invitation/abc');
        expect(part, language).toContain('Ada Admin');
        expect(part, language).toContain('Acme HR');
        expect(part, language).toContain('ines@example.test');
        expect(part, language).toContain(expiryText('2026-12-03T09:30:00+00:00', language));
        expect(part, language).not.toContain('{{');
      }
      expect(mail.html, language).toContain(
        `lang="${{ enUS: 'en-US', nlNL: 'nl-NL', esES: 'es-ES', frFR: 'fr-FR' }[language]}"`,
      );
    }
    expect(subjects.size).toBe(4);
    expect(renderMail(variants, params()).text.split('\n')[0]).toBe('Dear Ines,');
    expect(expiryText('2026-12-03T09:30:00+00:00', 'enUS')).toBe('Thursday, December 3, 2026 at 9:30 AM UTC');
    expect(expiryText('2026-12-03T09:30:00+00:00', 'nlNL')).toBe('donderdag 3 december 2026 om 09:30 UTC');
  });

  it('escapes and isolates what people typed, keeps it on one line, and reads broken params without throwing', () => {
    const mail = renderMail(
      variants,
      params({
        recipient: { firstname: '<b>Ines</b>\nMallory', lastname: 'X', email: 'ines@example.test' },
        inviter: { firstname: 'עדה', lastname: 'Admin', email: 'a@example.test' },
        sender: 'Acme\nHR & "co"',
      }),
    );
    expect(mail.html).toContain('&lt;b&gt;Ines&lt;/b&gt; Mallory');
    expect(mail.html).not.toContain('<b>Ines</b>');
    expect(mail.html).toContain('<bdi>עדה Admin</bdi>');
    expect(mail.text).toContain(`${FSI}עדה Admin${PDI}`);
    expect(mail.text).not.toMatch(/^Mallory/m);
    expect(mail.html).toContain('Acme HR &amp; &quot;co&quot;');
    // Read back from the outbox as JSON: a broken row renders, it does not throw.
    const broken = JSON.parse('{"stage":"user_invitation","language":"xxXX","recipient":null,"inviter":7}');
    const rendered = renderMail(variants, broken);
    expect(rendered.subject).toBe('You are invited to Assay');
    expect(rendered.text).toContain('Hello,');
    expect(() => renderMail(variants, { ...params(), stage: 'user_other' as never })).toThrow(/unknown/);
  });
});
