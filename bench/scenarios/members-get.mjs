// GET /members/{memberid} at 50 connections, random ids from a pool of 10,000 members, against a
// bare Fastify app doing the same primary-key SELECT (bench/floor-server.mjs).
import autocannon from 'autocannon';
import {
  accessToken,
  fmtRps,
  fmtX,
  json,
  median,
  memberId,
  onEachEngine,
  prepareInstance,
  request,
  startServer,
  withTimeout,
} from '../harness.mjs';

const MEMBERS = 10_000;
const CONNECTIONS = 50;
const DURATION = Number(process.env.BENCH_DURATION ?? 12);
// Long enough for both servers to reach their optimised code on a slow machine.
const WARMUP = 5;

const cannon = (port, { path, method = 'GET', headers = {}, body, setupRequest }, seconds) =>
  withTimeout(
    autocannon({
      url: `http://127.0.0.1:${port}`,
      connections: CONNECTIONS,
      duration: seconds,
      requests: [{ method, path, headers, body, ...(setupRequest ? { setupRequest } : {}) }],
    }),
    (seconds + 30) * 1000,
    'autocannon',
  );

function summarise(results, seconds) {
  const sum = (pick) => results.reduce((total, result) => total + pick(result), 0);
  const total = sum((r) => r.requests.total);
  const bad = sum((r) => r.non2xx + r.errors + r.timeouts);
  const p50 = Math.max(...results.map((r) => r.latency.p50));
  const p99 = Math.max(...results.map((r) => r.latency.p99));
  return {
    rps: total / seconds,
    summary: `${total} requests, p50 ${p50} ms, p99 ${p99} ms (worst slice), ${bad} non-2xx/errors/timeouts`,
    badShare: bad / (total || 1),
  };
}

/** autocannon against one server: a short warm-up, then the measured run. */
export async function load(port, target, duration) {
  await cannon(port, target, WARMUP);
  return summarise([await cannon(port, target, duration)], duration);
}

/**
 * Two servers measured in alternating slices (warm-up, then A B A B ...), so that a drift in the
 * load of the machine falls on both alike. Answers the rate of each over all its slices and the
 * median of the per-pair ratios A/B, which a burst of outside load in one slice cannot move much.
 */
export async function loadInterleaved(a, b, duration, slices = 6) {
  await cannon(a.port, a.target, WARMUP);
  await cannon(b.port, b.target, WARMUP);
  const results = [[], []];
  const slice = duration / slices;
  for (let i = 0; i < slices; i++) {
    results[0].push(await cannon(a.port, a.target, slice));
    results[1].push(await cannon(b.port, b.target, slice));
  }
  const ratios = results[0].map((r, i) => r.requests.total / (results[1][i].requests.total || 1));
  const [rateA, rateB] = results.map((list) => summarise(list, duration));
  return { a: rateA, b: rateB, ratio: median(ratios), ratios };
}

const randomPath = (prefix) => (req) => ({
  ...req,
  path: `${prefix}${memberId(Math.floor(Math.random() * MEMBERS))}`,
});

async function measure(ctx, engine) {
  const label = `GET /members/{memberid} x${CONNECTIONS} conns, ${MEMBERS / 1000}k members (${engine})`;
  const instance = await prepareInstance(ctx, engine, MEMBERS, 'get');
  try {
    const server = await startServer('assay', instance.store);
    const floorServer = await startServer('floor', instance.store);
    let assay;
    let floor;
    let ratio;
    let ratios;
    try {
      const token = await accessToken(server.port, instance.client);
      const headers = { authorization: `Bearer ${token}` };
      const probe = json(
        await request(server.port, { path: `/api/v1/members/${memberId(7)}`, headers }),
        'GET /members/{id}',
      );
      if (probe.status !== 'OK' || probe.data?.memberid !== memberId(7)) {
        throw new Error(`GET /members/{id} answered ${JSON.stringify(probe).slice(0, 200)}`);
      }
      const floorProbe = json(await request(floorServer.port, { path: `/members/${memberId(7)}` }), 'floor');
      if (floorProbe.status !== 'OK') throw new Error(`floor server answered ${JSON.stringify(floorProbe)}`);
      ({
        a: assay,
        b: floor,
        ratio,
        ratios,
      } = await loadInterleaved(
        { port: server.port, target: { headers, setupRequest: randomPath('/api/v1/members/') } },
        { port: floorServer.port, target: { setupRequest: randomPath('/members/') } },
        DURATION,
      ));
    } finally {
      await Promise.all([server.stop(), floorServer.stop()]);
    }
    ctx.note(
      `${label}: assay ${assay.summary}; floor ${floor.summary}; ratio per slice ${ratios.map(fmtX).join(' ')}`,
    );
    return [
      {
        scenario: `${label}: throughput (${DURATION} s)`,
        figure: fmtRps(assay.rps),
        floor: `${fmtRps(floor.rps)} (bare fastify + select)`,
        ratio: `${fmtX(ratio)} (median of ${ratios.length} slices)`,
        target: '≥ 0.7x',
        pass: ratio >= 0.7 && assay.badShare === 0,
      },
    ];
  } finally {
    instance.dispose();
  }
}

export default (ctx) => onEachEngine(ctx, measure);
