import Type from 'typebox';
import { describe, expect, it } from 'vitest';
import { MAX_NAMED, validate } from '../../src/validation/validator.js';

const schema = Type.Object({
  when: Type.Optional(Type.String({ format: 'date-time' })),
  count: Type.Optional(Type.Integer({ minimum: 0 })),
  flag: Type.Optional(Type.Boolean()),
  nested: Type.Optional(Type.Object({ deep: Type.Boolean() })),
  list: Type.Optional(Type.Array(Type.String())),
});

const message = (value: unknown) => {
  try {
    validate(schema, value, 'body');
    return 'valid';
  } catch (error) {
    return (error as Error).message;
  }
};

describe('the request validator', () => {
  it('coerces and normalises what clients send, and drops unknown fields', () => {
    expect(
      validate(schema, { when: '2026-11-22 11:46', count: '12', flag: '1', other: 'x' }, 'body'),
    ).toEqual({
      when: '2026-11-22T11:46:00+00:00',
      count: 12,
      flag: true,
    });
  });

  it('names the field and the problem', () => {
    expect(message({ when: 'soon' })).toBe('when: must be a date such as 2026-11-22T11:46:36+00:00');
    expect(message({ count: 1.5 })).toBe('count: must be a whole number');
    expect(message({ count: -1 })).toBe('count: must be at least 0');
    expect(message({ nested: {} })).toBe('nested.deep: is required');
    expect(message({ nested: { deep: 'maybe' } })).toBe('nested.deep: must be a boolean');
    expect(message({ list: ['a', 2] })).toBe('list[1]: must be a string');
    expect(message(null)).toBe('body: must be an object');
    expect(message([])).toBe('body: must be an object');
  });

  it("names every problem at once, in the order of the schema's fields, each field once", () => {
    expect(message({ list: ['a', 2, 'c', false], count: 'x', when: 'soon', nested: {} })).toBe(
      'when: must be a date such as 2026-11-22T11:46:36+00:00; count: must be a whole number; ' +
        'nested.deep: is required; list[1]: must be a string; list[3]: must be a string',
    );
    const required = Type.Object({ a: Type.String(), b: Type.Integer(), c: Type.Boolean() });
    expect(() => validate(required, { b: 'x' }, 'body')).toThrow(
      'a: is required; b: must be a whole number; c: is required',
    );
  });

  it('names at most MAX_NAMED problems, then says how many more there are', () => {
    const many = Array.from({ length: MAX_NAMED + 3 }, (_, i) => i);
    expect(message({ list: many })).toBe(
      `${many
        .slice(0, MAX_NAMED)
        .map((i) => `list[${i}]: must be a string`)
        .join('; ')}; and 3 more problems`,
    );
    expect(message({ list: many.slice(0, MAX_NAMED + 1) })).toMatch(/; and 1 more problem$/);
  });
});
