// The operator console (issue 20), each page beside a floor measured in the same run: a bare
// Fastify app that makes the same service calls and renders the same view (bench/floor-console.mjs,
// BENCH_FLOOR_MODE=console). One request at a time, to the last byte, assay and floor alternated,
// so that a drift in the machine's load falls on both alike; the ratio is of the medians.
//   - the dashboard with 1,000 campaigns (and 100,000 members, 10,000 of them in one campaign);
//   - the member list (page 1, and a search) with 100,000 members;
//   - the page of the campaign with 10,000 members;
//   - the sign-in page.
// The console is signed in to with a one-time link from `assay users sign-in-link`.
import {
  accessToken,
  fmtMs,
  fmtX,
  json,
  MAIN,
  median,
  memberId,
  onEachEngine,
  prepareInstance,
  QUIET,
  request,
  runNode,
  startServer,
  storeFlags,
} from '../harness.mjs';

const MEMBERS = 100_000;
const CAMPAIGNS = 1_000;
const CAMPAIGN_MEMBERS = 10_000;
const WARMUP = 40;
const RUNS = 120;

/** The pages measured: where each is on assay and on the floor, and the target. */
const pages = (campaign) => [
  { name: 'dashboard, 1,000 campaigns', assay: '/console', floor: '/console', target: 2 },
  {
    name: 'member list page 1, 100,000 members',
    assay: '/console/members',
    floor: '/console/members',
    target: 2,
  },
  {
    name: 'member list search, 100,000 members',
    assay: '/console/members?q=lastname4242',
    floor: '/console/members?q=lastname4242',
    target: 2,
  },
  {
    name: 'campaign page, 10,000 members',
    assay: `/console/campaigns/${campaign}`,
    floor: `/console/campaigns/${campaign}`,
    target: 2,
  },
  { name: 'sign-in page', assay: '/console/sign-in', floor: '/console/sign-in', target: 2, anonymous: true },
];

async function seed(port, client) {
  const token = await accessToken(port, client, 'campaigns');
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  const call = async (method, path, body) => {
    const answer = json(await request(port, { method, path, headers, body: JSON.stringify(body) }), path);
    if (answer.status !== 'OK') throw new Error(`${method} ${path}: ${JSON.stringify(answer).slice(0, 300)}`);
    return answer.data;
  };
  let first;
  for (let i = 0; i < CAMPAIGNS; i++) {
    const made = await call('POST', '/api/v1/campaigns', {
      name: `Bench campaign ${i}`,
      variant: i % 3 === 0 ? 'leadership360' : 'bigfive',
      start: '2026-01-01T00:00:00+00:00',
      ...(i % 5 === 0 ? { end: '2026-02-01T00:00:00+00:00', closingtype: 'date' } : {}),
    });
    first ??= made.campaignid;
  }
  const memberids = Array.from({ length: CAMPAIGN_MEMBERS }, (_, i) => memberId(i));
  await call('POST', `/api/v1/campaigns/${first}/members`, { memberids });
  return first;
}

/** A signed-in operator's cookie, through a one-time sign-in link. */
async function signIn(store, port) {
  const out = await runNode([MAIN, 'users', 'sign-in-link', ...storeFlags(store)]);
  const link = /\/console\/sign-in\/link\/[A-Za-z0-9_-]+/.exec(out)?.[0];
  if (!link) throw new Error(`users sign-in-link answered ${out}`);
  const answer = await request(port, { path: link });
  const cookie = String(answer.headers['set-cookie'] ?? '').split(';')[0];
  if (answer.status !== 303 || !cookie) throw new Error(`sign-in link: HTTP ${answer.status}`);
  return cookie;
}

async function measure(ctx, engine) {
  const instance = await prepareInstance(ctx, engine, MEMBERS, 'console');
  try {
    const server = await startServer('assay', instance.store, { env: QUIET });
    const floor = await startServer('floor', instance.store, { env: { BENCH_FLOOR_MODE: 'console' } });
    const rows = [];
    try {
      const campaign = await seed(server.port, instance.client);
      ctx.note(
        `console (${engine}): ${CAMPAIGNS} campaigns, ${MEMBERS} members, ${CAMPAIGN_MEMBERS} in ${campaign}`,
      );
      const cookie = await signIn(instance.store, server.port);
      for (const page of pages(campaign)) {
        const headers = page.anonymous ? {} : { cookie };
        const get = async (port, path, hdrs) => {
          const answer = await request(port, { path, headers: hdrs });
          if (answer.status !== 200) throw new Error(`${path}: HTTP ${answer.status}`);
          return answer;
        };
        const a0 = await get(server.port, page.assay, headers);
        const f0 = await get(floor.port, page.floor, {});
        const strip = (body) => body.toString('utf8').replace(/value="[A-Za-z0-9_-]{43}"/g, '');
        if (Math.abs(strip(a0.body).length - strip(f0.body).length) > 200) {
          throw new Error(
            `${page.name}: assay and floor pages differ (${a0.body.length} / ${f0.body.length} bytes)`,
          );
        }
        for (let i = 0; i < WARMUP; i++) {
          await get(server.port, page.assay, headers);
          await get(floor.port, page.floor, {});
        }
        const times = { assay: [], floor: [] };
        for (let i = 0; i < RUNS; i++) {
          times.assay.push((await get(server.port, page.assay, headers)).ms);
          times.floor.push((await get(floor.port, page.floor, {})).ms);
        }
        const assayMs = median(times.assay);
        const floorMs = median(times.floor);
        const ratio = assayMs / floorMs;
        rows.push({
          scenario: `console: ${page.name} (${engine}), GET one at a time, ${a0.body.length} bytes`,
          figure: `${fmtMs(assayMs)} median of ${RUNS}`,
          floor: `${fmtMs(floorMs)} (bare fastify, same calls and view)`,
          ratio: fmtX(ratio),
          target: `≤ ${page.target}x`,
          pass: ratio <= page.target,
        });
      }
    } finally {
      await Promise.all([server.stop(), floor.stop()]);
    }
    return rows;
  } finally {
    instance.dispose();
  }
}

export default (ctx) => onEachEngine(ctx, measure);
