// POST /auth/access_token at 50 connections (client credentials, form body): requests a second.
import { fmtRps, prepareInstance, startServer, tokenBody } from '../harness.mjs';
import { load } from './members-get.mjs';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);

export default async function run(ctx) {
  const instance = await prepareInstance(ctx, 'sqlite', 0, 'token');
  try {
    const server = await startServer('assay', instance.store);
    let result;
    try {
      result = await load(
        server.port,
        {
          method: 'POST',
          path: '/api/v1/auth/access_token',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: tokenBody(instance.client),
        },
        DURATION,
      );
    } finally {
      await server.stop();
    }
    ctx.note(`POST /auth/access_token: ${result.summary}`);
    return [
      {
        scenario: `POST /auth/access_token x50 conns (sqlite): throughput (${DURATION} s)`,
        figure: fmtRps(result.rps),
        floor: '-',
        ratio: '-',
        target: '-',
        pass: true,
      },
    ];
  } finally {
    instance.dispose();
  }
}
