// The floors served by a bare Fastify app in a process of its own, run beside `assay serve`:
//   - members (the default): GET /members/{memberid}, one route doing the same primary-key SELECT,
//     no auth, no validation, JSON.stringify of the JSend envelope;
//   - questionnaire (BENCH_FLOOR_MODE=questionnaire): the participant pages /q/<token>,
//     /q/<token>/page/<n> (GET, POST), /q/<token>/check (GET, POST) and /q/<token>/done rendered
//     with renderPage from the build, from models built as questionnaire.routes.ts builds them, with
//     the same headers, form parser, CSRF check and answer checks, and no database: a participant's
//     answers (as JSON text) and completion are kept in a Map. The campaign is described by
//     BENCH_FLOOR_QUESTIONNAIRE, JSON `{ variant, name, language?, sendreportdelivery? }`.
//   - console (BENCH_FLOOR_MODE=console): the operator console's pages, rendered by the build's
//     views from the build's service calls, with no session, no hooks, no CSRF (bench/floor-console.mjs);
//   node bench/floor-server.mjs (--data DIR | --database-url URL) --port N
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import Database from 'better-sqlite3';
import Fastify from 'fastify';
import pg from 'pg';

const { values } = parseArgs({
  options: { data: { type: 'string' }, 'database-url': { type: 'string' }, port: { type: 'string' } },
});

const app = Fastify({ logger: false });
let close = async () => {};

if (process.env.BENCH_FLOOR_MODE === 'questionnaire') {
  await questionnaireFloor(app, JSON.parse(process.env.BENCH_FLOOR_QUESTIONNAIRE ?? '{}'));
} else if (process.env.BENCH_FLOOR_MODE === 'console') {
  const { consoleFloor } = await import('./floor-console.mjs');
  close = await consoleFloor(app, { dataDir: values.data, databaseUrl: values['database-url'] });
} else {
  let findMember;
  if (values['database-url']) {
    const pool = new pg.Pool({ connectionString: values['database-url'], max: 10 });
    findMember = async (id) => (await pool.query('select * from members where id = $1', [id])).rows[0];
    close = () => pool.end();
  } else {
    const db = new Database(path.join(values.data, 'assay.sqlite'));
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    const statement = db.prepare('select * from members where id = ?');
    findMember = async (id) => statement.get(id);
    close = async () => db.close();
  }

  app.get('/members/:memberid', async (request, reply) => {
    const row = await findMember(request.params.memberid);
    reply.type('application/json; charset=utf-8');
    return JSON.stringify(
      row ? { status: 'OK', data: row } : { status: 'ERROR', message: 'member: not found', data: null },
    );
  });
}

/**
 * The participant pages without a database. Every model below is built as questionnaire.routes.ts
 * and questionnaire/page-kit.ts build theirs (questionModel, questionPage, the intro, check and done
 * pages), for a participant without a role, on an open campaign, with no path prefix.
 */
async function questionnaireFloor(app, campaign) {
  const dist = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../packages/server/dist');
  const load = (file) => import(pathToFileURL(path.join(dist, file)).href);
  const { renderPage } = await load('pages/render.js');
  const { fill, stringsFor } = await load('pages/strings.js');
  const { signupStringsFor } = await load('pages/signup-strings.js');
  const { checkCsrf, csrfToken, setPageHeaders } = await load('pages/security.js');
  const { AnswerError, checkAnswer, MAX_TEXT_ANSWER } = await load('reports/answers.js');
  const { builtinVariantsDir, loadVariants } = await load('variants/load-variants.js');
  const { questionnaireMinutes } = await load('questionnaire/duration.js');

  const variant = loadVariants([builtinVariantsDir()]).get(campaign.variant);
  if (!variant) throw new Error(`no variant ${campaign.variant}`);
  const language =
    campaign.language && variant.languages.includes(campaign.language)
      ? campaign.language
      : variant.defaultLanguage;
  const prefix = '';
  const assets = `${prefix}/assets`;
  const secure = false;
  const q = (token, rest = '') => `${prefix}/q/${token}${rest}`;
  const TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

  // What the database holds in the real thing: the answers as JSON text, and whether it was sent.
  const store = new Map();
  const participation = (token) => {
    let row = store.get(token);
    if (!row) {
      row = { answers: '{}', status: 'started' };
      store.set(token, row);
    }
    return { member: row, token, answers: JSON.parse(row.answers) };
  };

  const page = (reply, status, template, model) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(renderPage(template, model, assets));
  const chrome = () => {
    const texts = variant.texts[language] ?? {};
    return { t: stringsFor(language), serviceName: campaign.name || texts['variant.name'] || variant.alias };
  };
  const unknown = (reply) => {
    const t = stringsFor('enUS');
    return page(reply, 404, 'message', {
      t,
      title: t.unknownTitle,
      heading: t.unknownTitle,
      paragraphs: [t.unknownBody],
    });
  };
  const isAnswered = (answers, question) =>
    answers[question.code] !== undefined && answers[question.code] !== '';
  const firstIncompletePage = (answers) =>
    variant.pages.findIndex((current) =>
      current.questions.some((question) => question.required && !isAnswered(answers, question)),
    ) + 1;

  function readPage(current, form, saved, requireAll) {
    const answers = { ...saved };
    const typed = {};
    const problems = [];
    for (const question of current.questions) {
      const raw = form[question.code];
      const value = typeof raw === 'string' ? raw : undefined;
      if (value !== undefined) typed[question.code] = value;
      if (value === undefined || value.trim() === '') {
        delete answers[question.code];
        if (question.required && requireAll) problems.push({ code: question.code, kind: 'missing' });
        continue;
      }
      try {
        answers[question.code] = checkAnswer(variant, question, value);
      } catch (error) {
        if (!(error instanceof AnswerError)) throw error;
        delete answers[question.code];
        const tooLong = question.type === 'text' && value.trim().length > MAX_TEXT_ANSWER;
        problems.push({ code: question.code, kind: tooLong ? 'too-long' : 'invalid' });
      }
    }
    return { answers, typed, problems };
  }

  function questionModel(answersNow, question, submission, problems) {
    const texts = variant.texts[language] ?? {};
    const t = stringsFor(language);
    const legend = question.texts[language] ?? texts[`q.${question.code}`] ?? question.code;
    const problem = problems.get(question.code);
    const error = problem
      ? problem.kind === 'too-long'
        ? fill(t.textTooLong, { max: 4000, question: legend })
        : fill(t.selectAnswer, { question: legend })
      : undefined;
    const typed = submission?.typed[question.code];
    const saved = answersNow[question.code];
    const current = typed ?? (saved === undefined ? '' : String(saved));
    const id = `q-${question.code}`;
    if (question.type === 'text') {
      return {
        textarea: true,
        id,
        name: question.code,
        legend,
        hint: fill(t.textLimit, { max: 4000 }),
        optional: !question.required,
        error,
        value: current,
      };
    }
    const points =
      question.type === 'likert' ? (variant.scales[question.scale]?.points ?? []) : question.options;
    const scale = question.type === 'likert' ? question.scale : undefined;
    return {
      textarea: false,
      id,
      name: question.code,
      legend,
      error,
      options: points.map((point, i) => ({
        id: i === 0 ? id : `${id}-${i + 1}`,
        value: String(point),
        label:
          (scale ? texts[`scale.${scale}.${point}`] : texts[`choice.${question.code}.${point}`]) ??
          String(point),
        checked: current === String(point),
      })),
    };
  }

  function questionPage(reply, token, answersNow, number, csrf, submission, returnTo) {
    const texts = variant.texts[language] ?? {};
    const base = chrome();
    const { t } = base;
    const current = variant.pages[number - 1];
    const heading = texts[`page.${current.code}.title`] ?? base.serviceName;
    const problems = new Map((submission?.problems ?? []).map((problem) => [problem.code, problem]));
    const questions = current.questions.map((question) =>
      questionModel(answersNow, question, submission, problems),
    );
    const errors = questions
      .filter((question) => question.error)
      .map((question) => ({ href: `#${question.id}`, text: question.error }));
    return page(reply, 200, 'question-page', {
      ...base,
      title: heading,
      errors: errors.length > 0 ? errors : undefined,
      backHref:
        returnTo === 'check' ? q(token, '/check') : number > 1 ? q(token, `/page/${number - 1}`) : q(token),
      caption: fill(t.pageOf, { page: number, pages: variant.pages.length }),
      heading,
      action: q(token, `/page/${number}`),
      csrf,
      returnTo: returnTo === 'check' ? 'check' : undefined,
      questions,
    });
  }

  function expired(reply, back) {
    const base = chrome();
    return page(reply, 403, 'message', {
      ...base,
      title: base.t.expiredTitle,
      heading: base.t.expiredTitle,
      paragraphs: [base.t.expiredBody],
      link: { href: back, text: base.t.tryAgain },
    });
  }

  const pageNumber = (text) => {
    const n = /^[1-9][0-9]{0,3}$/.test(text) ? Number(text) : 0;
    return n >= 1 && n <= variant.pages.length ? n : 0;
  };
  const formOf = (body) => (typeof body === 'object' && body !== null ? body : {});

  await app.register(async (scope) => {
    scope.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: 512 * 1024 },
      (_request, body, done) => {
        const form = Object.create(null);
        for (const [key, value] of new URLSearchParams(body)) form[key] = value;
        done(null, form);
      },
    );
    scope.addHook('onRequest', async (_request, reply) => {
      setPageHeaders(reply);
    });

    scope.get(`${prefix}/q/:token`, async (request, reply) => {
      const { token } = request.params;
      if (!TOKEN_PATTERN.test(token)) return unknown(reply);
      const { member, answers } = participation(token);
      if (member.status === 'completed') return reply.code(303).redirect(q(token, '/done'));
      const incomplete = firstIncompletePage(answers);
      if (Object.keys(answers).length > 0) {
        return reply.code(303).redirect(q(token, incomplete > 0 ? `/page/${incomplete}` : '/check'));
      }
      const texts = variant.texts[language] ?? {};
      const base = chrome();
      const minutes = questionnaireMinutes(variant);
      return page(reply, 200, 'intro', {
        ...base,
        title: texts['variant.name'] ?? base.serviceName,
        heading: texts['variant.name'] ?? base.serviceName,
        paragraphs: [
          texts['questionnaire.intro'] ?? base.t.startIntro,
          ...(minutes === undefined ? [] : [fill(base.t.duration, { minutes })]),
        ],
        startAction: q(token),
        csrf: csrfToken(request, reply, secure),
        ratersHref: undefined,
        ratersText: signupStringsFor(language).nominateLink,
      });
    });

    // "Start now": assay records the start; the floor goes on to the first page to answer.
    scope.post(`${prefix}/q/:token`, async (request, reply) => {
      const { token } = request.params;
      if (!TOKEN_PATTERN.test(token)) return unknown(reply);
      const { member, answers } = participation(token);
      if (member.status === 'completed') return reply.code(303).redirect(q(token, '/done'));
      if (!checkCsrf(request, formOf(request.body).csrf)) return expired(reply, q(token));
      const incomplete = firstIncompletePage(answers);
      return reply.code(303).redirect(q(token, incomplete > 0 ? `/page/${incomplete}` : '/check'));
    });

    scope.get(`${prefix}/q/:token/page/:page`, async (request, reply) => {
      const { token } = request.params;
      if (!TOKEN_PATTERN.test(token)) return unknown(reply);
      const { member, answers } = participation(token);
      if (member.status === 'completed') return reply.code(303).redirect(q(token, '/done'));
      const number = pageNumber(request.params.page);
      if (number === 0) return reply.code(303).redirect(q(token));
      return questionPage(
        reply,
        token,
        answers,
        number,
        csrfToken(request, reply, secure),
        undefined,
        request.query.return,
      );
    });

    scope.post(`${prefix}/q/:token/page/:page`, async (request, reply) => {
      const { token } = request.params;
      if (!TOKEN_PATTERN.test(token)) return unknown(reply);
      const { member, answers } = participation(token);
      if (member.status === 'completed') return reply.code(303).redirect(q(token, '/done'));
      const number = pageNumber(request.params.page);
      if (number === 0) return reply.code(303).redirect(q(token));
      const form = formOf(request.body);
      if (!checkCsrf(request, form.csrf)) return expired(reply, q(token, `/page/${number}`));
      const later = form.action === 'later';
      const submission = readPage(variant.pages[number - 1], form, answers, !later);
      member.answers = JSON.stringify(submission.answers);
      if (later) return reply.code(303).redirect(q(token, '/saved'));
      if (submission.problems.length > 0) {
        return questionPage(
          reply,
          token,
          submission.answers,
          number,
          csrfToken(request, reply, secure),
          submission,
          form.return === 'check' ? 'check' : undefined,
        );
      }
      const next = firstIncompletePage(submission.answers);
      if (form.return === 'check' && next === 0) return reply.code(303).redirect(q(token, '/check'));
      if (number < variant.pages.length) return reply.code(303).redirect(q(token, `/page/${number + 1}`));
      return reply.code(303).redirect(q(token, next > 0 ? `/page/${next}` : '/check'));
    });

    scope.get(`${prefix}/q/:token/check`, async (request, reply) => {
      const { token } = request.params;
      if (!TOKEN_PATTERN.test(token)) return unknown(reply);
      const { member, answers } = participation(token);
      if (member.status === 'completed') return reply.code(303).redirect(q(token, '/done'));
      const incomplete = firstIncompletePage(answers);
      if (incomplete > 0) return reply.code(303).redirect(q(token, `/page/${incomplete}`));
      const texts = variant.texts[language] ?? {};
      const base = chrome();
      const sections = variant.pages.map((current, index) => ({
        title:
          texts[`page.${current.code}.title`] ??
          fill(base.t.pageOf, { page: index + 1, pages: variant.pages.length }),
        rows: current.questions.map((question) => {
          const model = questionModel(answers, question, undefined, new Map());
          const answer = model.textarea
            ? model.value
            : (model.options?.find((option) => option.checked)?.label ?? '');
          return {
            question: model.legend,
            answer,
            href: q(token, `/page/${index + 1}?return=check#${model.id}`),
            hidden: fill(base.t.changeHidden, { question: model.legend }),
          };
        }),
      }));
      return page(reply, 200, 'check', {
        ...base,
        title: base.t.checkTitle,
        backHref: q(token, `/page/${variant.pages.length}`),
        sections,
        action: q(token, '/check'),
        csrf: csrfToken(request, reply, secure),
      });
    });

    scope.post(`${prefix}/q/:token/check`, async (request, reply) => {
      const { token } = request.params;
      if (!TOKEN_PATTERN.test(token)) return unknown(reply);
      const { member, answers } = participation(token);
      if (member.status === 'completed') return reply.code(303).redirect(q(token, '/done'));
      if (!checkCsrf(request, formOf(request.body).csrf)) return expired(reply, q(token, '/check'));
      const incomplete = firstIncompletePage(answers);
      if (incomplete > 0) return reply.code(303).redirect(q(token, `/page/${incomplete}`));
      member.status = 'completed';
      return reply.code(303).redirect(q(token, '/done'));
    });

    scope.get(`${prefix}/q/:token/done`, async (request, reply) => {
      const { token } = request.params;
      if (!TOKEN_PATTERN.test(token)) return unknown(reply);
      const { member } = participation(token);
      if (member.status !== 'completed') return reply.code(303).redirect(q(token));
      const base = chrome();
      return page(reply, 200, 'done', {
        ...base,
        title: base.t.doneTitle,
        thanks: variant.texts[language]?.['questionnaire.thanks'] ?? '',
        reportAction: campaign.sendreportdelivery ? `${prefix}/r/${token}` : undefined,
        csrf: csrfToken(request, reply, secure),
        ratersHref: undefined,
        ratersText: signupStringsFor(language).nominateLink,
      });
    });
  });
}

const shutdown = async () => {
  await app.close();
  await close();
  process.exit(0);
};
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());

await app.listen({ port: Number(values.port), host: '127.0.0.1' });
process.stdout.write(`floor server listening on 127.0.0.1:${values.port}\n`);
