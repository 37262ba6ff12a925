import type { Instance } from '../helpers/instance.js';
import { postFromThread } from '../helpers/page-sampler.js';

// What the large-import tests share: bodies of many new members, and a POST from another thread.

export type ImportAnswer = { status: string; data: Record<string, unknown[]> };

/** `count` new members as a JSON import body (75 bytes a row), each e-mail unique to `tag`. */
export function jsonBody(tag: string, count: number): string {
  const rows: string[] = [];
  for (let i = 0; i < count; i++) {
    rows.push(`{"email":"${tag}.${i}@example.test","firstname":"Firstname","lastname":"Lastname ${i}"}`);
  }
  return `{"members":[${rows.join(',')}]}`;
}

/** The same as CSV, with a custom field. */
export function csvBody(tag: string, count: number): string {
  const lines = ['email,firstname,lastname,extra.team'];
  for (let i = 0; i < count; i++)
    lines.push(`${tag}.${i}@example.test,Firstname,"Lastname, ${i}",Team ${i % 7}`);
  return `${lines.join('\r\n')}\r\n`;
}

/**
 * `POST /members/import` of the body, made from another thread (the client's copies of a large
 * body are not in this thread's memory, where the server runs); `send()` answers the parsed answer.
 */
export async function postImport(instance: Instance, base: string, body: string, contentType: string) {
  const bearer = await instance.token('members');
  return postFromThread(
    `${base}/api/v1/members/import`,
    { authorization: `Bearer ${bearer}`, 'content-type': contentType },
    body,
  );
}
