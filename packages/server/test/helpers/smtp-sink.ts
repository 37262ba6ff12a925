import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer, type SMTPServerAddress } from 'smtp-server';

/** How the sink answers a message, changeable between deliveries. */
export type SinkMode =
  /**
   * `delayMs`: a slow server. The message is kept at once and answered that much later, so a sender
   * that dies in between has delivered a mail it does not know about.
   */
  | { kind: 'accept'; delayMs?: number }
  /** Every message is refused after its DATA with this reply code (550 permanent, 451 temporary). */
  | { kind: 'refuse'; code: number; message?: string }
  /** Every connection is refused with this reply code instead of the greeting. */
  | { kind: 'refuse-connection'; code: number; message?: string }
  /** DATA is read and never answered: a server that hangs. */
  | { kind: 'hang' };

/** A message the sink accepted (a refused or hung one is not stored). */
export interface ReceivedMail {
  raw: string;
  envelope: { from: string; to: string[] };
  /** The Message-ID header, with its angle brackets; '' when there is none. */
  messageId: string;
}

export interface SmtpSink {
  /** `smtp://127.0.0.1:<port>`, for SMTP_URL. */
  readonly url: string;
  mode: SinkMode;
  readonly received: ReceivedMail[];
  /** Messages whose DATA began, whatever the answer (refused and hung ones too). */
  readonly attempts: number;
  /** How many accepted messages carried each Message-ID. */
  countByMessageId(): Map<string, number>;
  /** The accepted message with this Message-ID, parsed by mailparser. */
  parsed(messageId: string): Promise<ParsedMail>;
  /** Resolves once `count` messages were accepted (or rejects after `timeoutMs`). */
  waitForReceived(count: number, timeoutMs?: number): Promise<void>;
  /** Resolves once `count` messages began their DATA. */
  waitForAttempts(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

const withCode = (error: Error, responseCode: number) => Object.assign(error, { responseCode });

const MESSAGE_ID = /^message-id:[ \t]*(<[^>\r\n]*>)/im;

/**
 * A real SMTP server on a free local port that keeps what it accepts, in memory. No TLS and no
 * authentication, as a relay on the same host would be.
 */
export async function startSmtpSink(mode: SinkMode = { kind: 'accept' }): Promise<SmtpSink> {
  const received: ReceivedMail[] = [];
  let attempts = 0;
  const waiters = new Set<() => void>();
  const changed = () => {
    for (const waiter of waiters) waiter();
  };
  const envelopeOf = (address: SMTPServerAddress | false) => (address ? address.address : '');

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    // A hung message keeps its connection; closing must not wait the default 30 s for it.
    closeTimeout: 100,
    onConnect(_session, callback) {
      const current = sink.mode;
      if (current.kind !== 'refuse-connection') return callback();
      callback(withCode(new Error(current.message ?? 'no service for the test'), current.code));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      attempts++;
      changed();
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const current = sink.mode;
        if (current.kind === 'hang') return;
        if (current.kind === 'refuse') {
          const error = new Error(current.message ?? `refused by the test sink (${current.code})`);
          return callback(withCode(error, current.code));
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        received.push({
          raw,
          envelope: {
            from: envelopeOf(session.envelope.mailFrom),
            to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
          },
          messageId: MESSAGE_ID.exec(raw)?.[1] ?? '',
        });
        changed();
        const delayMs = current.kind === 'accept' ? current.delayMs : undefined;
        if (delayMs) setTimeout(() => callback(), delayMs);
        else callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  server.on('error', () => {});
  const { port } = server.server.address() as AddressInfo;

  const waitUntil = (done: () => boolean, what: string, timeoutMs: number) =>
    new Promise<void>((resolve, reject) => {
      if (done()) return resolve();
      const check = () => {
        if (!done()) return;
        clearTimeout(timer);
        waiters.delete(check);
        resolve();
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`smtp sink: ${what} not reached in ${timeoutMs} ms`));
      }, timeoutMs);
      waiters.add(check);
    });

  const sink: SmtpSink = {
    url: `smtp://127.0.0.1:${port}`,
    mode,
    received,
    get attempts() {
      return attempts;
    },
    countByMessageId() {
      const counts = new Map<string, number>();
      for (const mail of received) counts.set(mail.messageId, (counts.get(mail.messageId) ?? 0) + 1);
      return counts;
    },
    async parsed(messageId) {
      const mail = received.find((candidate) => candidate.messageId === messageId);
      if (!mail) throw new Error(`smtp sink: no message ${messageId}`);
      return simpleParser(mail.raw);
    },
    waitForReceived: (count, timeoutMs = 10_000) =>
      waitUntil(() => received.length >= count, `${count} messages received`, timeoutMs),
    waitForAttempts: (count, timeoutMs = 10_000) =>
      waitUntil(() => attempts >= count, `${count} messages begun`, timeoutMs),
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return sink;
}
