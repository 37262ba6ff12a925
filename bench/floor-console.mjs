// The console's floor (bench/floor-server.mjs, BENCH_FLOOR_MODE=console): each page of the operator
// console that the bench measures, as a bare Fastify route that makes the same service calls (so
// the same queries) and renders the same view with the same template, and nothing else: no session
// lookup, no form token, no hooks, no security headers. What the console costs beyond it is the
// price of the console's own machinery.
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const dist = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../packages/server/dist');
const load = (file) => import(pathToFileURL(path.join(dist, file)).href);

export async function consoleFloor(app, store) {
  const { openDatabase } = await load('db/connect.js');
  const { renderPage } = await load('pages/render.js');
  const { loadConfig } = await load('config.js');
  const { builtinVariantsDir, loadVariants } = await load('variants/load-variants.js');
  const { listCampaigns } = await load('campaigns/campaigns.service.js');
  const { failedPerCampaign } = await load('mail/outbox.service.js');
  const { dashboardView } = await load('console/views/dashboard.view.js');
  const { signInView } = await load('console/views/sign-in.view.js');
  const { memberListPage } = await load('members/members.service.js');
  const { memberListView } = await load('console/views/members.view.js');
  const { loadCampaignPage } = await load('console/campaign.routes.js');
  const { campaignPageView } = await load('console/views/campaign.view.js');
  const { reportListPage } = await load('reports/reports.service.js');
  const { reportListView } = await load('console/views/reports.view.js');
  const { isOutboxStatus, listMails, mailCounts } = await load('mail/outbox.service.js');
  const { MAIL_PAGE_SIZE, mailListView, parseCursor } = await load('console/views/mail.view.js');
  const { brandingChange } = await load('auth/branding.js');
  const { coverSvg } = await load('console/views/branding.view.js');

  const database = openDatabase({ dataDir: store.dataDir, databaseUrl: store.databaseUrl });
  const variants = loadVariants([builtinVariantsDir()]);
  const config = loadConfig({ LOG_LEVEL: 'silent', ASSAY_DATA_DIR: store.dataDir });
  const deps = {
    config,
    db: database.kysely,
    dialect: database.dialect,
    variants,
    clock: () => new Date(),
    mailQueued: () => {},
    campaignsDue: () => {},
  };
  // The signed-in admin, read once (the console reads its user with the session on every page).
  const admin = await database.kysely
    .selectFrom('users')
    .selectAll()
    .where('role', '=', 'admin')
    .orderBy('created')
    .executeTakeFirstOrThrow();
  const viewer = (url) => ({ language: 'enUS', user: admin, csrf: 'x'.repeat(43), path: url });
  const html = (reply, view) =>
    reply.type('text/html; charset=utf-8').send(renderPage(view.template, view.model, '/console/assets'));

  app.get('/console', async (request, reply) => {
    const [campaigns, failedMails] = await Promise.all([
      listCampaigns(deps, { userId: admin.id }),
      failedPerCampaign(deps.db),
    ]);
    return html(
      reply,
      dashboardView(viewer(request.url), {
        campaigns,
        failedMails,
        variant: (alias) => variants.get(alias),
        filter: 'all',
        page: 1,
      }),
    );
  });

  app.get('/console/sign-in', async (request, reply) =>
    html(
      reply,
      signInView({ language: 'enUS', path: request.url }, { next: '/console', csrf: 'y'.repeat(43) }),
    ),
  );

  app.get('/console/members', async (request, reply) => {
    const q = typeof request.query.q === 'string' ? request.query.q : undefined;
    const page = await memberListPage(deps.db, { search: q?.trim() });
    return html(reply, memberListView(viewer(request.url), { q, page }));
  });

  app.get('/console/campaigns/:campaignid', async (request, reply) => {
    const input = await loadCampaignPage(deps, { userId: admin.id }, request.params.campaignid, {
      filter: 'all',
      page: 1,
    });
    return html(reply, campaignPageView(viewer(request.url), { ...input, notice: undefined }));
  });

  // The report list: the route's filters (variant, type, page 1) and its one query and view.
  app.get('/console/reports', async (request, reply) => {
    const q = request.query;
    const filters = { variant: q.variant || undefined, type: q.type || undefined };
    const page = await reportListPage(deps, { variant: filters.variant, type: filters.type });
    return html(
      reply,
      reportListView(viewer(request.url), { query: filters, page, variants: variants.list() }),
    );
  });

  // The outbox: a page of mails and the counts per status, the two queries the route makes.
  app.get('/console/mail', async (request, reply) => {
    const status =
      request.query.status && isOutboxStatus(request.query.status) ? request.query.status : undefined;
    const [mails, counts] = await Promise.all([
      listMails(deps.db, {
        status,
        limit: MAIL_PAGE_SIZE + 1,
        before: parseCursor(request.query.before),
      }),
      mailCounts(deps.db),
    ]);
    return html(
      reply,
      mailListView(viewer(request.url), {
        mails,
        counts,
        status,
        smtpConfigured: config.smtpUrl !== undefined,
      }),
    );
  });

  // The branding preview: the typed values checked as a save would, and the cover drawn.
  app.get('/console/branding/preview.svg', async (request, reply) => {
    const q = request.query;
    const { change } = brandingChange({
      agencyname: q.agencyname,
      agencyfooter: q.agencyfooter,
      color: q.color,
    });
    const values = {
      agencyname: change.agencyname ?? admin.agencyname,
      agencyfooter: change.agencyfooter ?? admin.agencyfooter,
      color: change.color ?? admin.color,
    };
    return reply.type('image/svg+xml; charset=utf-8').send(coverSvg('enUS', values, new Date()));
  });

  return () => database.close();
}
