import net from 'node:net';
import { insertMembers } from '../../src/members/members.repository.js';
import type { NewMemberRow } from '../../src/members/members.table.js';
import { caseFold } from '../../src/util/text.js';
import type { Instance } from '../helpers/instance.js';

// What the slow-client tests share: many members to list, and a reader that never reads.

export const MEMBERS = 20_000;

/** 20,000 members written in bulk (500 rows a statement), not through the API one by one. */
export async function seedMembers(instance: Instance, count: number): Promise<void> {
  const created = new Date().toISOString().replace(/\.\d+Z$/, '+00:00');
  const rows: NewMemberRow[] = [];
  for (let i = 0; i < count; i++) {
    const email = `slow.${i}@example.test`;
    rows.push({
      id: `s${i.toString(36).padStart(9, '0')}`,
      title: 'Dr.',
      firstname: `Firstname${i}`,
      middlename: '',
      lastname: `Lastname of member number ${i}`,
      email,
      email_key: caseFold(email),
      phone: '+31 20 555 0100',
      company: 'An Example Company of Considerable Size and Reach',
      jobtitle: 'Senior Principal Consultant for Assessments',
      status: 'active',
      level: null,
      testuser: 0,
      group_id: null,
      extra: '{}',
      created,
    });
  }
  await insertMembers(instance.db.kysely, rows);
}

/** A socket that asks for `path` and then never reads: its kernel buffers fill and the server must wait. */
export function stuckReader(port: number, path: string, apiKey: string): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ port, host: '127.0.0.1' }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nX-API-Key: ${apiKey}\r\n\r\n`);
      resolve(socket);
    });
    // Never read: no data listener, and paused so that nothing is taken from the kernel.
    socket.pause();
    socket.on('error', () => {});
    socket.once('error', reject);
  });
}

/**
 * The server's side of the connections made to `server` from now on, by the client's port: `stuck`
 * says whether the server holds bytes of an answer to `client` that it cannot hand to the kernel
 * (the reader's buffers are full), so its answer has begun and not ended.
 */
export function serverSides(server: net.Server): { stuck(client: net.Socket): boolean; forget(): void } {
  const byPort = new Map<number, net.Socket>();
  const record = (socket: net.Socket) => {
    if (socket.remotePort !== undefined) byPort.set(socket.remotePort, socket);
  };
  server.on('connection', record);
  return {
    stuck(client) {
      const side = client.localPort === undefined ? undefined : byPort.get(client.localPort);
      return side !== undefined && !side.destroyed && side.writableLength > 0;
    },
    forget: () => server.off('connection', record),
  };
}
