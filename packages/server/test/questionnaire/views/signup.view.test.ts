import { describe, expect, it } from 'vitest';
import { signupStringsFor } from '../../../src/pages/signup-strings.js';
import { stringsFor } from '../../../src/pages/strings.js';
import {
  campaignLanguage,
  closedSignupView,
  fieldError,
  fields,
  nominationProblem,
  raterRoles,
  ratersView,
  readNomination,
  signedUpView,
  signupCampaign,
  signupView,
} from '../../../src/questionnaire/views/signup.view.js';
import { campaignRow, participation, paths, TOKEN, variants } from '../fixtures.js';

const s = signupStringsFor('enUS');
const t = stringsFor('enUS');
const settings = { register: true, signup: false, skipvalidation: false, group: undefined };

describe('sign-up fields', () => {
  it('speaks to the visitor at sign-up and about the rater when nominating', () => {
    expect(fieldError(s, { field: 'firstname', kind: 'missing' }, false)).toBe(s.firstnameMissing);
    expect(fieldError(s, { field: 'firstname', kind: 'missing' }, true)).toBe(s.raterFirstnameMissing);
    expect(fieldError(s, { field: 'email', kind: 'invalid' }, true)).toBe(s.emailInvalid);
    expect(fieldError(s, { field: 'lastname', kind: 'link' }, false)).toBe(s.nameHasLink);
    expect(fieldError(s, { field: 'lastname', kind: 'control' }, false)).toBe(s.nameHasControl);
    expect(fieldError(s, undefined, false)).toBeUndefined();
  });

  it('describes each field by its hint and its error, and keeps what was typed', () => {
    const [first, , mail] = fields(t, s, { firstname: 'Zoë' }, [{ field: 'email', kind: 'missing' }], true);
    expect(first).toMatchObject({
      id: 'f-firstname',
      value: 'Zoë',
      autocomplete: 'given-name',
      describedBy: undefined,
    });
    expect(mail).toMatchObject({
      id: 'f-email',
      error: s.emailMissing,
      describedBy: 'f-email-hint f-email-error',
    });
    expect(fields(t, s, {}, [], false).map((field) => field.name)).toEqual(['email']);
    expect(fields(t, s, {}, [], true, true)[0]?.autocomplete).toBe('off');
  });
});

describe('the sign-up pages', () => {
  it('speak the campaign’s language when its variant has it, else the variant’s default', () => {
    expect(campaignLanguage({ variant: 'bigfive', language: 'frFR' }, variants)).toBe('frFR');
    expect(campaignLanguage({ variant: 'bigfive', language: 'xx' }, variants)).toBe(
      variants.get('bigfive')?.defaultLanguage,
    );
    expect(campaignLanguage({ variant: 'nope', language: 'nlNL' }, variants)).toBe('enUS');
  });

  it('asks for names and e-mail to register, lists the problems, posts to the same address', () => {
    const found = signupCampaign(campaignRow(), settings, 'enUS');
    const { template, model } = signupView(found, paths, 'c', {}, [{ field: 'email', kind: 'missing' }]);
    expect(template).toBe('signup');
    expect(model.title).toBe(s.registerTitle);
    expect(model.action).toBe('/survey/s/team-2026');
    expect(model.errors).toEqual([{ href: '#f-email', text: s.emailMissing }]);
    const signupOnly = signupView(
      signupCampaign(campaignRow(), { ...settings, register: false }, 'enUS'),
      paths,
      'c',
    );
    expect(signupOnly.model.title).toBe(s.signupTitle);
    expect(signupOnly.model.errors).toBeUndefined();
  });

  it('never shows the link: the same words whether the address takes part or not', () => {
    const found = signupCampaign(campaignRow(), settings, 'nlNL');
    const sent = signedUpView(found, 'sent', 'zoe@example.com').model;
    expect(sent.paragraphs).toEqual([
      signupStringsFor('nlNL').checkEmailBody.replace('{email}', 'zoe@example.com'),
      signupStringsFor('nlNL').checkEmailNext,
    ]);
    expect(signedUpView(found, 'full', 'zoe@example.com').model.title).toBe(
      signupStringsFor('nlNL').fullTitle,
    );
    expect(closedSignupView('esES').model.title).toBe(signupStringsFor('esES').closedSignupTitle);
  });
});

describe('the raters page', () => {
  const subject = participation('leadership360', 'enUS', { role: 'self' });

  it('lists the raters as the subject typed them, and offers the roles that cannot add participants', () => {
    expect(raterRoles(subject)).toEqual(['manager', 'peer', 'directreport']);
    const listed = [{ name: 'Ann Bo', email: 'ann@example.com', role: 'peer' }];
    const { template, model } = ratersView(subject, listed, paths, 'c', { added: 'Ann Bo', role: 'peer' });
    expect(template).toBe('raters');
    expect(model.raters).toEqual([{ name: 'Ann Bo', email: 'ann@example.com', role: 'Peer' }]);
    expect(model.added).toBe('Ann Bo has been added.');
    expect(model.canAdd).toBe(true);
    expect(model.action).toBe(`/survey/q/${TOKEN}/raters`);
    expect(
      (model.roles as { value: string; checked: boolean }[]).filter((role) => role.checked),
    ).toMatchObject([{ value: 'peer' }]);
  });

  it('replaces the form at 20 raters', () => {
    const listed = Array.from({ length: 20 }, (_, i) => ({
      name: `R ${i}`,
      email: `r${i}@example.com`,
      role: 'peer',
    }));
    const { model } = ratersView(subject, listed, paths, 'c');
    expect(model.canAdd).toBe(false);
    expect(model.allFull).toBe(s.ratersAllFull.replace('{max}', '20'));
  });

  it('says why a nomination added nobody, next to what it concerns', () => {
    expect(nominationProblem(subject, 'added', 'peer')).toBeUndefined();
    expect(nominationProblem(subject, 'self', 'peer')).toEqual({
      extraError: { field: 'email', text: s.raterIsYou },
    });
    expect(nominationProblem(subject, 'present', 'peer')).toEqual({
      extraError: { field: 'email', text: s.raterPresent },
    });
    expect(nominationProblem(subject, 'role-cap', 'manager')).toEqual({
      roleError: 'You have asked 2 people as “Manager”, the most you can ask. Choose another relationship',
    });
    expect(nominationProblem(subject, 'full', 'peer')).toEqual({ pageError: s.ratersCampaignFull });
    const problem = nominationProblem(subject, 'role-cap', 'manager');
    const { model } = ratersView(subject, [], paths, 'c', { role: 'manager', ...problem });
    expect(model.errors).toEqual([{ href: '#role', text: problem?.roleError }]);
  });

  it('reads a nomination: the form’s problems, a role, never the subject’s own address', () => {
    const form = { firstname: 'Ann', lastname: 'Bo', email: 'ann@example.com', role: 'peer' };
    expect(readNomination(subject, form)).toEqual({
      value: { firstname: 'Ann', lastname: 'Bo', email: 'ann@example.com' },
      role: 'peer',
    });
    expect(readNomination(subject, { ...form, role: 'self' }).problem).toMatchObject({
      role: undefined,
      roleError: s.roleMissing,
    });
    expect(readNomination(subject, { ...form, email: 'ZOE@example.com' }).problem).toMatchObject({
      extraError: { field: 'email', text: s.raterIsYou },
    });
    expect(readNomination(subject, { ...form, firstname: '' }).problem).toMatchObject({
      problems: [{ field: 'firstname', kind: 'missing' }],
      role: 'peer',
    });
  });
});
