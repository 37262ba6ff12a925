import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { Webhook } from 'standardwebhooks';
import type { Database, Dialect } from '../../src/db/database.js';
import { WebhookDelivery } from '../../src/webhooks/delivery.js';

/** One request the receiver got, verified with the official `standardwebhooks` library. */
export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  body: string;
  /** The event as `standardwebhooks` verified it, or undefined when no secret verified it. */
  event: { type: string; timestamp: string; data: Record<string, unknown> } | undefined;
  /** Which of the receiver's secrets verified it (their indexes). */
  verifiedBy: number[];
  status: number;
}

/**
 * A webhook receiver on a loopback port: it verifies every request with each secret it holds,
 * answers the statuses queued with `answer` (then 200), and keeps what it got.
 */
export interface WebhookReceiver {
  url: string;
  received: Received[];
  secrets: string[];
  /** The next answers, in order (e.g. 500, 500); 200 after them. */
  answer(...statuses: number[]): void;
  /** Answer every request with this status from now on (undefined: back to 200). */
  always(status: number | undefined): void;
  /** Back to answering 200 at once; forgets what was queued. */
  reset(): void;
  /** Hold every answer this long. */
  delayMs: number;
  /** Never answer (a receiver that hangs): requests are kept, and end when the receiver closes. */
  hang: boolean;
  /** Cuts the connections of the requests held by `hang` without an answer; answers how many. */
  drop(): number;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const queue: number[] = [];
  const held = new Set<http.ServerResponse>();
  let fixed: number | undefined;
  const receiver: Omit<WebhookReceiver, 'url' | 'close'> = {
    received: [],
    secrets: [],
    answer: (...statuses) => queue.push(...statuses),
    always: (status) => {
      fixed = status;
    },
    delayMs: 0,
    hang: false,
    drop: () => {
      const count = held.size;
      for (const response of held) response.socket?.destroy();
      held.clear();
      return count;
    },
    reset: () => {
      queue.length = 0;
      fixed = undefined;
      receiver.delayMs = 0;
      receiver.hang = false;
    },
  };
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        'webhook-id': String(request.headers['webhook-id'] ?? ''),
        'webhook-timestamp': String(request.headers['webhook-timestamp'] ?? ''),
        'webhook-signature': String(request.headers['webhook-signature'] ?? ''),
      };
      let event: Received['event'];
      const verifiedBy: number[] = [];
      receiver.secrets.forEach((secret, index) => {
        try {
          event = new Webhook(secret).verify(body, headers) as Received['event'];
          verifiedBy.push(index);
        } catch {
          // Not this secret.
        }
      });
      const status = fixed ?? queue.shift() ?? 200;
      receiver.received.push({
        id: headers['webhook-id'],
        timestamp: headers['webhook-timestamp'],
        signature: headers['webhook-signature'],
        body,
        event,
        verifiedBy,
        status,
      });
      if (receiver.hang) {
        held.add(response);
        return;
      }
      setTimeout(() => {
        response.writeHead(status, { 'content-type': 'text/plain' });
        response.end(status < 300 ? 'ok' : 'no');
      }, receiver.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}/hooks`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}

/**
 * Delivers every webhook message due now, at real time, with a worker of its own (private and
 * plain-http targets allowed: the receiver above is on loopback), then stops it.
 */
export async function deliverDue(db: Kysely<Database>, dialect: Dialect): Promise<void> {
  const worker = new WebhookDelivery({
    db,
    dialect,
    policy: { allowPrivate: true, allowHttp: true },
    clock: () => new Date(),
    pollMs: 20,
  });
  try {
    while ((await worker.runOnce()) > 0);
  } finally {
    await worker.stop();
  }
}
