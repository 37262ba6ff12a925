import { Worker } from 'node:worker_threads';

export interface Sample {
  url: string;
  /** The HTTP status, or 0 when the request failed or was not answered within 10 s. */
  status: number;
  /** When the answer's last byte came, on the clock `now()` reads (shared by every thread). */
  at: number;
}

/** Milliseconds since the epoch, to the fraction: one clock for this thread and the sampler's. */
export const now = () => performance.timeOrigin + performance.now();

// The requests are made from a worker thread, whose event loop is not the server's: a server that
// holds its event loop (the tests run it in their own process) holds up the answers, never the
// asking. What the samples say is *when* each answer came, not how long it took: the tests compare
// that with when the work began and ended, which a busy machine stretches alike, where a time
// limit would fail on a slow runner (the latency targets themselves are measured by
// `npm run bench -- --only busy`).
const SAMPLER = `
const { parentPort, workerData } = require('node:worker_threads');
const now = () => performance.timeOrigin + performance.now();
let stopped = false;
parentPort.on('message', () => { stopped = true; });
(async () => {
  const samples = [];
  let told = false;
  while (!stopped) {
    for (const url of workerData.urls) {
      let status = 0;
      try {
        const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(10000) });
        await response.arrayBuffer();
        status = response.status;
      } catch {}
      samples.push({ url, status, at: now() });
      if (!told) parentPort.postMessage('answering');
      told = true;
    }
    await new Promise((resolve) => setTimeout(resolve, workerData.pauseMs));
  }
  parentPort.postMessage(samples);
})();
`;

/**
 * Asks for `urls` in turn, `pauseMs` apart, from another thread, until `stop()` answers what it
 * saw; `answering` resolves once the first answer came (the work to watch starts after it).
 */
export function samplePages(
  urls: string[],
  pauseMs = 20,
): { answering: Promise<void>; stop(): Promise<Sample[]> } {
  const worker = new Worker(SAMPLER, { eval: true, workerData: { urls, pauseMs } });
  let answered: () => void = () => {};
  const answering = new Promise<void>((resolve) => {
    answered = resolve;
  });
  const result = new Promise<Sample[]>((resolve, reject) => {
    worker.on('message', (message: 'answering' | Sample[]) => {
      if (message === 'answering') return answered();
      resolve(message);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
  return {
    answering,
    stop() {
      worker.postMessage('stop');
      return result;
    },
  };
}

const POSTER = `
const { parentPort, workerData } = require('node:worker_threads');
const body = Buffer.from(workerData.body);
parentPort.once('message', async () => {
  try {
    const response = await fetch(workerData.url, { method: 'POST', headers: workerData.headers, body });
    parentPort.postMessage({ ok: true, answer: await response.json() });
  } catch (error) {
    parentPort.postMessage({ ok: false, error: String(error) });
  }
});
parentPort.postMessage('ready');
`;

/**
 * A POST made from another thread, so that the client's copies of a large body are not counted in
 * this thread's memory (where the server runs). `ready` resolves once the body is there; `send()`
 * posts it and answers the parsed JSON answer.
 */
export async function postFromThread(
  url: string,
  headers: Record<string, string>,
  body: string,
): Promise<{ send(): Promise<unknown> }> {
  const worker = new Worker(POSTER, { eval: true, workerData: { url, headers, body } });
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  return {
    send() {
      const answer = new Promise<unknown>((resolve, reject) => {
        worker.once('message', (message: { ok: boolean; answer?: unknown; error?: string }) => {
          void worker.terminate();
          if (message.ok) resolve(message.answer);
          else reject(new Error(message.error));
        });
        worker.once('error', reject);
      });
      worker.postMessage('go');
      return answer;
    },
  };
}

/**
 * What was wrong with the answers asked for while some work went on from `from` to `to` (`now()`
 * times): a failed answer, or a quarter of the work in which no page was answered (the event loop
 * held for a quarter of the work or more; an import that held it throughout, as before the
 * hardening, answers nothing until it ends). Answers [] when the server kept answering.
 */
export function unansweredDuring(samples: Sample[], from: number, to: number): string[] {
  const problems: string[] = [];
  const failed = samples.filter((sample) => sample.status === 0 || sample.status >= 400);
  const [first] = failed;
  if (first)
    problems.push(`${failed.length} of ${samples.length} answers failed (${first.url}: ${first.status})`);
  for (const q of quartersWithout(
    samples.map((sample) => sample.at),
    from,
    to,
  ))
    problems.push(`no page answered in quarter ${q} of the work (${((to - from) / 4000).toFixed(2)} s each)`);
  return problems;
}

/** The quarters (1 to 4) of the span from `from` to `to` in which none of `times` falls. */
export function quartersWithout(times: number[], from: number, to: number): number[] {
  const quarter = (to - from) / 4;
  const empty: number[] = [];
  for (let q = 0; q < 4; q++) {
    const start = from + q * quarter;
    if (!times.some((at) => at >= start && at < start + quarter)) empty.push(q + 1);
  }
  return empty;
}
