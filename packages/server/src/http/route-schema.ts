import { ErrorEnvelope, HttpErrorBody, Ok } from '@assay/schema';
import Type, { type TSchema } from 'typebox';
import { BusinessError } from '../domain/errors.js';

/** The documented answers of an API route: its data in the envelope, a business ERROR, the HTTP errors. */
export function responses(data: TSchema, description?: string) {
  return {
    200: Type.Union([Ok(data), ErrorEnvelope], { description: description ?? 'JSend envelope' }),
    401: HttpErrorBody,
    403: HttpErrorBody,
    404: HttpErrorBody,
  };
}

/** A path parameter that is an id; an unknown or malformed one answers 404. */
export const idParams = <K extends string>(...names: K[]) =>
  Type.Object(
    Object.fromEntries(
      names.map((name) => [
        name,
        Type.String({ pattern: '^[0-9A-Za-z]{10}$', description: 'a 10-character id' }),
      ]),
    ) as {
      [P in K]: ReturnType<typeof Type.String>;
    },
  );

/** The spec: "the body must be empty". An empty JSON object (or `null`) is taken as empty too. */
export function requireEmptyBody(body: unknown): void {
  const empty =
    body === undefined ||
    body === null ||
    body === '' ||
    (typeof body === 'object' && !Array.isArray(body) && Object.keys(body).length === 0);
  if (!empty) throw new BusinessError('body: must be empty');
}
