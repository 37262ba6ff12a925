import type { TSchema } from 'typebox';
import { Value } from 'typebox/value';
import { expect } from 'vitest';

/** Asserts that `value` has exactly the shape of `schema`: every field, no other, each of its type. */
export function expectShape(schema: TSchema, value: unknown) {
  const errors = [...Value.Errors(schema, value)].map((error) => `${error.instancePath} ${error.message}`);
  expect(errors).toEqual([]);
}
