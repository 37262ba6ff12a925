// POST /members/import of 10,000 new members (JSON): wall time, against a plain script doing the
// same e-mail lookups and 500-row inserts in one transaction (bench/floor.mjs import).
import path from 'node:path';
import {
  accessToken,
  fmtMs,
  fmtX,
  json,
  median,
  onEachEngine,
  prepareInstance,
  ROOT,
  request,
  runNode,
  startServer,
  storeFlags,
} from '../harness.mjs';

const ROWS = 10_000;
const RUNS = 3;

function body(run) {
  const members = [];
  for (let i = 0; i < ROWS; i++) {
    members.push({
      email: `import${run}-${i}@bench.example.com`,
      firstname: `First${i}`,
      lastname: `Last${i}`,
    });
  }
  return JSON.stringify({ members });
}

async function measure(ctx, engine) {
  const label = `POST /members/import, ${ROWS / 1000}k new rows (${engine})`;
  const instance = await prepareInstance(ctx, engine, 0, 'import');
  try {
    const times = [];
    let created = 0;
    const server = await startServer('assay', instance.store);
    try {
      const token = await accessToken(server.port, instance.client);
      for (let run = 0; run < RUNS; run++) {
        const response = await request(server.port, {
          method: 'POST',
          path: '/api/v1/members/import',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: body(run),
        });
        const answer = json(response, 'POST /members/import');
        const ids = new Set(answer?.data?.created ?? []);
        if (run === 0) created = ids.size;
        else created = Math.min(created, ids.size);
        if (ids.size !== ROWS) {
          ctx.note(`${label}: run ${run + 1} answered ${JSON.stringify(answer).slice(0, 300)}`);
        }
        times.push(response.ms);
      }
    } finally {
      await server.stop();
    }
    // The floor imports into a fresh instance too, so that its table grows the same way.
    const floors = [];
    const floorInstance = await prepareInstance(ctx, engine, 0, 'import-floor');
    for (let run = 0; run < RUNS; run++) {
      const out = await runNode([
        path.join(ROOT, 'bench/floor.mjs'),
        'import',
        ...storeFlags(floorInstance.store),
        '--rows',
        String(ROWS),
        '--from',
        String(run * ROWS),
      ]);
      floors.push(JSON.parse(out).ms);
    }
    floorInstance.dispose();
    const ms = median(times);
    const floor = median(floors);
    ctx.note(
      `${label}: times ${times.map((t) => t.toFixed(0)).join(', ')} ms (table grows by ${ROWS} each run); ` +
        `floor ${floors.map((t) => t.toFixed(0)).join(', ')} ms`,
    );
    return [
      {
        scenario: `${label}: wall time (median of ${RUNS}), ${created.toLocaleString('en')} ids created`,
        figure: fmtMs(ms),
        floor: `${fmtMs(floor)} (lookups + inserts)`,
        ratio: fmtX(ms / floor),
        target: '< 3 s',
        pass: ms < 3000 && created === ROWS,
      },
    ];
  } finally {
    instance.dispose();
  }
}

export default (ctx) => onEachEngine(ctx, measure);
