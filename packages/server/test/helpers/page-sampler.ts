import { Worker } from 'node:worker_threads';

export interface Sample {
  url: string;
  /** Time to the last byte; a failure, an HTTP error or a 2 s wait counts as 2,000. */
  ms: number;
}

// The requests are made from a worker thread, whose event loop is not the server's: a server that
// blocks its event loop (the tests run it in their own process) holds up the answers, and that is
// measured, but never the asking.
const SAMPLER = `
const { parentPort, workerData } = require('node:worker_threads');
let stopped = false;
parentPort.on('message', () => { stopped = true; });
(async () => {
  const samples = [];
  while (!stopped) {
    for (const url of workerData.urls) {
      const started = performance.now();
      let ms;
      try {
        const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2000) });
        await response.arrayBuffer();
        ms = response.status >= 400 ? 2000 : performance.now() - started;
      } catch {
        ms = 2000;
      }
      samples.push({ url, ms });
    }
    await new Promise((resolve) => setTimeout(resolve, workerData.pauseMs));
  }
  parentPort.postMessage(samples);
})();
`;

/** Asks for `urls` in turn, `pauseMs` apart, from another thread, until `stop()` answers what it saw. */
export function samplePages(urls: string[], pauseMs = 20): { stop(): Promise<Sample[]> } {
  const worker = new Worker(SAMPLER, { eval: true, workerData: { urls, pauseMs } });
  const result = new Promise<Sample[]>((resolve, reject) => {
    worker.once('message', (samples: Sample[]) => {
      resolve(samples);
      void worker.terminate();
    });
    worker.once('error', reject);
  });
  return {
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

/** The time to the last byte of a GET, in ms (a failure or a 2 s wait counts as 2,000). */
export async function timed(url: string): Promise<number> {
  const started = performance.now();
  try {
    const response = await fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(2000) });
    await response.arrayBuffer();
    if (response.status >= 400) return 2000;
  } catch {
    return 2000;
  }
  return performance.now() - started;
}

/** What a page should answer within while other work goes on. */
export const TARGET_MS = 200;
/** What no answer may take: an event loop held by the work shows as seconds. */
export const NEVER_MS = 1000;

/**
 * What was wrong with the answers' times while the work went on: on a shared machine one answer in
 * twenty may miss the target (a full collection, a neighbour's burst of work), none may take a
 * second. An import that held the event loop (the 8.4 s of a 600,000-row import before it yielded)
 * fails both. Answers [] when the times are right.
 */
export function latencyProblems(times: number[]): string[] {
  const late = times.filter((ms) => ms >= TARGET_MS);
  const never = times.filter((ms) => ms >= NEVER_MS);
  const problems: string[] = [];
  if (late.length > times.length / 20)
    problems.push(`${late.length} of ${times.length} answers took ${TARGET_MS} ms or more`);
  if (never.length > 0) problems.push(`answers took ${never.map((ms) => ms.toFixed(0)).join(', ')} ms`);
  return problems;
}
