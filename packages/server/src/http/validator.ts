import { formatDate, parseDate } from '../util/dates.js';
import { isStorableText } from '../util/text.js';
import { BusinessError } from './errors.js';

/**
 * Checks and coerces a request part against the JSON Schema that TypeBox produced for it, so the
 * schema that documents a route is the one that validates it. Coercion follows the spec's advice
 * to clients: booleans accept true/false, 1/0, "1"/"0"; whole numbers accept numeric strings; dates
 * are read tolerantly and normalised. Unknown properties are dropped. The first problem is thrown as
 * a BusinessError `<field>: <problem>`.
 */
// biome-ignore lint/suspicious/noExplicitAny: JSON Schema is untyped here by nature.
type Schema = Record<string, any>;

const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:]+$/;

class Invalid {
  constructor(
    readonly path: string,
    readonly problem: string,
  ) {}
}

// Derived from a schema once, not on every request: schemas are built at start-up and never change.
const patterns = new WeakMap<Schema, RegExp>();
const propertyLists = new WeakMap<Schema, [string, Schema][]>();

function patternOf(schema: Schema): RegExp {
  let pattern = patterns.get(schema);
  if (!pattern) {
    pattern = new RegExp(schema.pattern);
    patterns.set(schema, pattern);
  }
  return pattern;
}

function propertiesOf(schema: Schema): [string, Schema][] {
  let list = propertyLists.get(schema);
  if (!list) {
    list = Object.entries<Schema>(schema.properties ?? {});
    propertyLists.set(schema, list);
  }
  return list;
}

const describe = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

function constants(schema: Schema): unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  if (schema.type === 'null') return [null];
  if (Array.isArray(schema.enum)) return schema.enum;
  if (Array.isArray(schema.anyOf)) {
    const all: unknown[] = [];
    for (const branch of schema.anyOf) {
      const values = constants(branch);
      if (!values) return undefined;
      all.push(...values);
    }
    return all;
  }
  return undefined;
}

function check(schema: Schema, value: unknown, path: string): unknown {
  if (Array.isArray(schema.anyOf)) {
    const choices = constants(schema);
    if (choices) {
      if (choices.includes(value)) return value;
      const shown = choices.map((choice) => (choice === null ? 'null' : String(choice))).join(', ');
      throw new Invalid(path, `must be one of ${shown}`);
    }
    let first: Invalid | undefined;
    for (const branch of schema.anyOf) {
      try {
        return check(branch, value, path);
      } catch (error) {
        if (!(error instanceof Invalid)) throw error;
        // Report the branch whose type matched, not the last one tried.
        if (!first || (branch.type === describe(value) && error.path !== path)) first = error;
      }
    }
    throw first ?? new Invalid(path, 'is not valid');
  }
  if ('const' in schema) {
    if (value !== schema.const) throw new Invalid(path, `must be ${JSON.stringify(schema.const)}`);
    return value;
  }
  switch (schema.type) {
    case 'string':
      return checkString(schema, value, path);
    case 'boolean':
      if (value === true || value === 1 || value === '1' || value === 'true') return true;
      if (value === false || value === 0 || value === '0' || value === 'false') return false;
      throw new Invalid(path, 'must be a boolean');
    case 'integer':
    case 'number': {
      const number = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
      if (typeof number !== 'number' || !Number.isFinite(number))
        throw new Invalid(path, `must be a ${schema.type === 'integer' ? 'whole number' : 'number'}`);
      if (schema.type === 'integer' && !Number.isInteger(number))
        throw new Invalid(path, 'must be a whole number');
      if (schema.minimum !== undefined && number < schema.minimum)
        throw new Invalid(path, `must be at least ${schema.minimum}`);
      if (schema.maximum !== undefined && number > schema.maximum)
        throw new Invalid(path, `must be at most ${schema.maximum}`);
      return number;
    }
    case 'null':
      if (value !== null) throw new Invalid(path, 'must be null');
      return null;
    case 'array':
      return checkArray(schema, value, path);
    case 'object':
      return checkObject(schema, value, path);
    default:
      return value;
  }
}

function checkString(schema: Schema, value: unknown, path: string): string {
  if (typeof value !== 'string') throw new Invalid(path, 'must be a string');
  if (!isStorableText(value))
    throw new Invalid(path, 'must not contain NUL or unpaired surrogate characters');
  if (schema.minLength !== undefined && value.length < schema.minLength) {
    throw new Invalid(
      path,
      schema.minLength === 1 ? 'must not be empty' : `must be at least ${schema.minLength} characters`,
    );
  }
  if (schema.maxLength !== undefined && value.length > schema.maxLength) {
    throw new Invalid(path, `must be at most ${schema.maxLength} characters`);
  }
  if (schema.pattern !== undefined && !patternOf(schema).test(value)) {
    throw new Invalid(
      path,
      schema.description ? `must be ${schema.description}` : 'has characters that are not allowed',
    );
  }
  if (schema.format === 'email' && !EMAIL.test(value))
    throw new Invalid(path, 'must be a valid e-mail address');
  if (schema.format === 'date-time') {
    const date = parseDate(value);
    if (!date) throw new Invalid(path, 'must be a date such as 2026-11-22T11:46:36+00:00');
    return formatDate(date);
  }
  return value;
}

function checkArray(schema: Schema, value: unknown, path: string): unknown[] {
  if (!Array.isArray(value)) throw new Invalid(path, 'must be an array');
  if (schema.maxItems !== undefined && value.length > schema.maxItems) {
    throw new Invalid(
      path,
      schema.maxItems === 0 ? 'must be an object' : `must have at most ${schema.maxItems} items`,
    );
  }
  if (!schema.items) return value;
  return value.map((item, index) => check(schema.items, item, `${path}[${index}]`));
}

function checkObject(schema: Schema, value: unknown, path: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Invalid(path, 'must be an object');
  const input = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  const prefix = path === 'body' || path === 'query' || path === 'params' ? '' : `${path}.`;
  for (const name of schema.required ?? []) {
    if (input[name] === undefined) throw new Invalid(`${prefix}${name}`, 'is required');
  }
  for (const [name, property] of propertiesOf(schema)) {
    if (input[name] !== undefined) out[name] = check(property, input[name], `${prefix}${name}`);
  }
  if (schema.patternProperties) {
    const [pattern] = Object.values<Schema>(schema.patternProperties);
    for (const [name, item] of Object.entries(input)) {
      if (name.length > 200) throw new Invalid(`${prefix}${name.slice(0, 40)}...`, 'name is too long');
      if (name === '__proto__' || name === 'constructor' || name === 'prototype') {
        throw new Invalid(`${prefix}${name}`, 'name is not allowed');
      }
      out[name] = check(pattern as Schema, item, `${prefix}${name}`);
    }
  }
  return out;
}

/** Validates `value` against `schema`; answers the coerced value or throws a BusinessError. */
export function validate(schema: Schema, value: unknown, part: 'body' | 'query' | 'params'): unknown {
  try {
    return check(schema, value, part);
  } catch (error) {
    if (error instanceof Invalid) throw new BusinessError(`${error.path}: ${error.problem}`);
    throw error;
  }
}
