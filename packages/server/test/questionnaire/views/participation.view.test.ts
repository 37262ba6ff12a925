import { describe, expect, it } from 'vitest';
import { stringsFor } from '../../../src/pages/strings.js';
import { nextAfterSave, pageNumber } from '../../../src/questionnaire/navigation.js';
import { expiredView, longDate, messageView, pagePaths } from '../../../src/questionnaire/views/page-view.js';
import {
  clearView,
  doneView,
  introView,
  ratersHref,
  reportNotReadyView,
  reportView,
  savedView,
  stateGate,
} from '../../../src/questionnaire/views/participation.view.js';
import { participation, paths, TOKEN, variant } from '../fixtures.js';

describe('page paths and the message page', () => {
  it('puts every page below the questionnaire URL’s path', () => {
    expect(paths.q(TOKEN, '/done')).toBe(`/survey/q/${TOKEN}/done`);
    expect(paths.report(TOKEN)).toBe(`/survey/r/${TOKEN}`);
    expect(paths.signup('team')).toBe('/survey/s/team');
    expect(pagePaths('').q(TOKEN)).toBe(`/q/${TOKEN}`);
  });

  it('makes one message page: the heading is the title, the link optional', () => {
    const t = stringsFor('enUS');
    expect(messageView({ t }, 'Heading', ['One'])).toEqual({
      template: 'message',
      model: { t, title: 'Heading', heading: 'Heading', paragraphs: ['One'] },
    });
    const expired = expiredView({ t, serviceName: 'Team' }, '/back').model;
    expect(expired.link).toEqual({ href: '/back', text: t.tryAgain });
    expect(expired.title).toBe(t.expiredTitle);
  });

  it('shows a moment as a long date in UTC in the page’s language', () => {
    expect(longDate('2026-12-04T11:46:36+00:00', stringsFor('enUS'))).toBe(
      'December 4, 2026 at 11:46 AM UTC',
    );
    expect(longDate('2026-12-04T11:46:36+00:00', stringsFor('nlNL'))).toMatch(/^4 december 2026/);
    expect(longDate('not a date', stringsFor('enUS'))).toBe('not a date');
  });
});

describe('what a link leads to', () => {
  it('sends a completed participant to the confirmation, and says when a campaign is not open', () => {
    expect(stateGate(participation('teamscan', 'enUS', { member: { status: 'completed' } }), paths)).toEqual({
      redirect: `/survey/q/${TOKEN}/done`,
    });
    const inactive = stateGate(participation('teamscan', 'frFR', { campaignStatus: 'inactive' }), paths);
    expect(inactive && 'status' in inactive && inactive.status).toBe(200);
    const ended = stateGate(participation('teamscan', 'enUS', { campaignStatus: 'ended' }), paths);
    expect(ended && 'view' in ended && ended.view.model.title).toBe(stringsFor('enUS').endedTitle);
    expect(ended && 'status' in ended && ended.status).toBe(410);
    expect(stateGate(participation('teamscan', 'enUS'), paths)).toBeUndefined();
  });

  it('explains a link that opens nothing in the campaign’s language, else the browser’s', () => {
    expect(clearView({ kind: 'reset', language: 'esES' }, 'enUS')).toMatchObject({
      status: 410,
      view: { model: { title: stringsFor('esES').resetTitle } },
    });
    expect(clearView({ kind: 'removed' }, 'nlNL')).toMatchObject({
      status: 410,
      view: { model: { title: stringsFor('nlNL').removedTitle } },
    });
    expect(clearView({ kind: 'unknown' }, 'frFR')).toMatchObject({
      status: 404,
      view: { model: { title: stringsFor('frFR').unknownTitle } },
    });
  });
});

describe('the start, saved, confirmation and report pages', () => {
  it('starts with the variant’s introduction, then the duration; a 360 subject may ask for raters', () => {
    const { template, model } = introView(
      participation('leadership360', 'enUS', { role: 'self' }),
      paths,
      'form-token',
    );
    expect(template).toBe('intro');
    expect(model.paragraphs).toEqual([
      variant('leadership360').texts.enUS?.['questionnaire.intro'],
      'It takes about 5 minutes.',
    ]);
    // The button posts to the link itself: starting is a POST, never the link opened.
    expect(model.startAction).toBe(`/survey/q/${TOKEN}`);
    expect(model.csrf).toBe('form-token');
    expect(model.ratersHref).toBe(`/survey/q/${TOKEN}/raters`);
    expect(
      introView(participation('leadership360', 'enUS', { role: 'peer' }), paths, 'c').model.ratersHref,
    ).toBeUndefined();
    expect(
      ratersHref(participation('leadership360', 'enUS', { role: 'self', campaignStatus: 'ended' }), paths),
    ).toBeUndefined();
  });

  it('says until when the same link brings the participant back', () => {
    const t = stringsFor('enUS');
    const dated = savedView(
      participation('teamscan', 'enUS', {
        campaign: { closingtype: 'date', end_at: '2026-12-04T11:46:36+00:00' },
      }),
      paths,
    ).model;
    expect(dated.paragraphs).toEqual([
      t.savedBody,
      'You can come back until December 4, 2026 at 11:46 AM UTC.',
    ]);
    expect(dated.link).toEqual({ href: `/survey/q/${TOKEN}`, text: t.continueAnswering });
    expect(savedView(participation('teamscan', 'enUS'), paths).model.paragraphs).toEqual([
      t.savedBody,
      t.savedNoEnd,
    ]);
  });

  it('offers the report on the confirmation only when the campaign sends reports', () => {
    const offered = doneView(
      participation('bigfive', 'enUS', { campaign: { sendreportdelivery: 1 } }),
      paths,
      'form-token',
    ).model;
    // A button posting to the report link (opening it is recorded), with the form token.
    expect(offered.reportAction).toBe(`/survey/r/${TOKEN}`);
    expect(offered.csrf).toBe('form-token');
    expect(doneView(participation('bigfive', 'enUS'), paths, 'c').model.reportAction).toBeUndefined();
  });

  it('shows the report link’s page in the report’s language, headed by the variant, its button posting to the link', () => {
    const { template, model } = reportView(
      { id: 'r1', variant: variant('bigfive'), language: 'nlNL' },
      TOKEN,
      paths,
      'form-token',
    );
    expect(template).toBe('report');
    expect(model.t).toBe(stringsFor('nlNL'));
    expect(model.title).toBe(stringsFor('nlNL').reportTitle);
    expect(model.serviceName).toBe(variant('bigfive').texts.nlNL?.['variant.name']);
    expect(model.action).toBe(`/survey/r/${TOKEN}`);
    expect(model.csrf).toBe('form-token');
    // A variant no longer installed: the page still opens, in the report's language.
    const orphan = reportView({ id: 'r1', variant: undefined, language: 'frFR' }, TOKEN, paths, 'c').model;
    expect(orphan.t).toBe(stringsFor('frFR'));
    expect(orphan.serviceName).toBeUndefined();
  });

  it('points a report link opened too early at the questionnaire', () => {
    const { model } = reportNotReadyView(participation('bigfive', 'enUS'), paths);
    expect(model.title).toBe(stringsFor('enUS').reportNotReadyTitle);
    expect(model.link).toEqual({ href: `/survey/q/${TOKEN}`, text: stringsFor('enUS').tryAgain });
  });
});

describe('moving through the pages', () => {
  const teamscan = variant('teamscan');
  const all = Object.fromEntries(
    teamscan.questions.map((question) => [question.code, question.type === 'text' ? 'ok' : 3]),
  );

  it('reads a page number only when the variant has that page', () => {
    expect(pageNumber(teamscan, '1')).toBe(1);
    expect(pageNumber(teamscan, String(teamscan.pages.length))).toBe(teamscan.pages.length);
    for (const text of ['0', '01', '9', '-1', '1.0', 'x', '']) expect(pageNumber(teamscan, text)).toBe(0);
  });

  it('goes on to the next page, from the last to the first incomplete one or the check page', () => {
    expect(nextAfterSave(paths, TOKEN, teamscan, 1, { answers: {} }, {})).toBe(`/survey/q/${TOKEN}/page/2`);
    expect(nextAfterSave(paths, TOKEN, teamscan, 3, { answers: {} }, {})).toBe(`/survey/q/${TOKEN}/page/1`);
    expect(nextAfterSave(paths, TOKEN, teamscan, 3, { answers: all }, {})).toBe(`/survey/q/${TOKEN}/check`);
    expect(nextAfterSave(paths, TOKEN, teamscan, 1, { answers: all }, { return: 'check' })).toBe(
      `/survey/q/${TOKEN}/check`,
    );
    expect(nextAfterSave(paths, TOKEN, teamscan, 1, { answers: {} }, { return: 'check' })).toBe(
      `/survey/q/${TOKEN}/page/2`,
    );
    expect(nextAfterSave(paths, TOKEN, teamscan, 1, { answers: {} }, { action: 'later' })).toBe(
      `/survey/q/${TOKEN}/saved`,
    );
  });
});
