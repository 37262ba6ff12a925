// GET /members with 100,000 members: time to the last byte and the server's RSS growth, against
// a plain script doing the same SELECT and one JSON.stringify (bench/floor.mjs list).
import path from 'node:path';
import {
  accessToken,
  fmtMB,
  fmtMs,
  fmtX,
  json,
  median,
  onEachEngine,
  prepareInstance,
  ROOT,
  request,
  rssOf,
  runNode,
  sampleRss,
  startServer,
  storeFlags,
} from '../harness.mjs';

const MEMBERS = 100_000;
const RUNS = 5;

async function measure(ctx, engine) {
  const label = `GET /members, ${MEMBERS / 1000}k members (${engine})`;
  const instance = await prepareInstance(ctx, engine, MEMBERS, 'list');
  try {
    const server = await startServer('assay', instance.store);
    const times = [];
    const growths = [];
    let items = -1;
    let bytes = 0;
    try {
      const token = await accessToken(server.port, instance.client);
      for (let i = 0; i < RUNS + 1; i++) {
        const sampler = sampleRss(server.pid);
        await sampler.ready;
        const before = rssOf(server.pid);
        const response = await request(server.port, {
          path: '/api/v1/members',
          headers: { authorization: `Bearer ${token}` },
        });
        const { peak } = await sampler.stop();
        growths.push(Math.max(0, peak - before));
        if (i > 0) times.push(response.ms);
        if (i === 0) {
          const answer = json(response, 'GET /members');
          items = answer.status === 'OK' && Array.isArray(answer.data) ? answer.data.length : -1;
          bytes = response.body.length;
        }
      }
    } finally {
      await server.stop();
    }
    const floor = JSON.parse(
      await runNode([
        path.join(ROOT, 'bench/floor.mjs'),
        'list',
        ...storeFlags(instance.store),
        '--runs',
        String(RUNS),
      ]),
    );
    const ms = median(times);
    const growth = Math.max(...growths);
    ctx.note(
      `${label}: times ${times.map((t) => t.toFixed(0)).join(', ')} ms; floor ${floor.times.map((t) => t.toFixed(0)).join(', ')} ms; ` +
        `RSS growth per request ${growths.map((g) => fmtMB(g)).join(', ')} (first is the cold one)`,
    );
    return [
      {
        scenario: `${label}: answer parses, has all items`,
        figure: `${items.toLocaleString('en')} items`,
        floor: `${floor.rows.toLocaleString('en')} rows`,
        ratio: '-',
        target: `${MEMBERS.toLocaleString('en')} items`,
        pass: items === MEMBERS,
      },
      {
        scenario: `${label}: time to last byte (median of ${RUNS})`,
        figure: fmtMs(ms),
        floor: `${fmtMs(floor.ms)} (select + stringify)`,
        ratio: fmtX(ms / floor.ms),
        target: '≤ 1.5x',
        pass: ms / floor.ms <= 1.5,
      },
      {
        scenario: `${label}: peak server RSS growth (max of ${RUNS + 1})`,
        figure: fmtMB(growth),
        floor: `${fmtMB(bytes)} (answer size)`,
        ratio: fmtX(growth / bytes),
        target: '≤ 3x',
        pass: growth / bytes <= 3,
      },
    ];
  } finally {
    instance.dispose();
  }
}

export default (ctx) => onEachEngine(ctx, measure);
