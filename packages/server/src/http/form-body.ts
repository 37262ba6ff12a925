import type { FastifyInstance } from 'fastify';

/** Where a parsed form keeps every field in order, for fields sent more than once (checkboxes). */
const ALL_FIELDS = Symbol('all form fields');

/**
 * The parser of the pages' URL-encoded forms, for the scope it is registered in only. Keys are read
 * into an object without a prototype, so no field name can reach Object.prototype; a field sent
 * twice reads as its last value, and `formValues` answers all of them.
 */
export function acceptForms(app: FastifyInstance, bodyLimit = 512 * 1024): void {
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit },
    (_request, body, done) => {
      const form: Record<string | symbol, unknown> = Object.create(null);
      const all: [string, string][] = [];
      for (const [key, value] of new URLSearchParams(body as string)) {
        form[key] = value;
        all.push([key, value]);
      }
      form[ALL_FIELDS] = all;
      done(null, form);
    },
  );
}

/** Every value a form field was sent with, in order (none: an empty list). */
export function formValues(body: unknown, key: string): string[] {
  if (typeof body !== 'object' || body === null) return [];
  const all = (body as Record<symbol, unknown>)[ALL_FIELDS];
  return Array.isArray(all) ? all.filter(([name]) => name === key).map(([, value]) => value as string) : [];
}
