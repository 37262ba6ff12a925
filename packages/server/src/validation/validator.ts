import { BusinessError } from '../domain/errors.js';
import { formatDate, parseDate } from '../util/dates.js';
import { checkEmail, cleanLines, lineProblem } from '../util/safe-text.js';
import { isStorableText } from '../util/text.js';

/**
 * Checks and coerces a request part against the JSON Schema that TypeBox produced for it, so the
 * schema that documents a route is the one that validates it. Coercion follows the spec's advice
 * to clients: booleans accept true/false, 1/0, "1"/"0"; whole numbers accept numeric strings; dates
 * are read tolerantly and normalised. Unknown properties are dropped. The problems are thrown as one
 * BusinessError `<field>: <problem>`, several joined by `; ` in the order of the schema's fields
 * (each field's first problem; at most MAX_NAMED, then how many more).
 *
 * Text that reaches a mail or a page (docs/decisions.md, "Text that reaches a mail"): a string with
 * `x-text: 'line'` refuses line breaks, control, bidirectional-control and invisible characters; one
 * with `x-text: 'lines'` keeps its line breaks (as LF) and tabs and loses other control characters;
 * `format: 'email'` refuses invisible, bidirectional and look-alike characters and mixed scripts, and
 * answers the address with its domain normalised (no trailing dot, IDNA as punycode).
 */
// biome-ignore lint/suspicious/noExplicitAny: JSON Schema is untyped here by nature.
export type Schema = Record<string, any>;

const EMAIL = /^[^\s@"<>()[\]\\,;:]+@[^\s@"<>()[\]\\,;:]+\.[^\s@"<>()[\]\\,;:]+$/;

/** How many problems one message names; past it the message says how many more there are. */
export const MAX_NAMED = 10;

interface Problem {
  readonly path: string;
  readonly problem: string;
}

/** One or more problems of a value, each field's first, in the schema's order. */
class Invalid {
  readonly problems: readonly Problem[];
  constructor(path: string, problem: string);
  constructor(problems: readonly Problem[]);
  constructor(pathOrProblems: string | readonly Problem[], problem = '') {
    this.problems = typeof pathOrProblems === 'string' ? [{ path: pathOrProblems, problem }] : pathOrProblems;
  }

  /** Where the (first) problem is. */
  get path(): string {
    return this.problems[0]?.path ?? '';
  }
}

/** Adds one problem to `problems` (made on the first), and answers them. */
function add(problems: Problem[] | undefined, path: string, problem: string): Problem[] {
  const all = problems ?? [];
  all.push({ path, problem });
  return all;
}

/** Adds an Invalid's problems to `problems` (made on the first), and answers them; rethrows anything else. */
function collect(problems: Problem[] | undefined, error: unknown): Problem[] {
  if (!(error instanceof Invalid)) throw error;
  const all = problems ?? [];
  all.push(...error.problems);
  return all;
}

/** Checks one value at `path`; answers it coerced or throws Invalid. */
type Checker = (value: unknown, path: string) => unknown;

// Each schema is compiled into a tree of closures once: schemas are built at start-up and never
// change, so a request pays only for the checks, not for reading the schema again.
const compiled = new WeakMap<Schema, Checker>();

function compile(schema: Schema): Checker {
  let checker = compiled.get(schema);
  if (!checker) {
    checker = build(schema);
    compiled.set(schema, checker);
  }
  return checker;
}

const describe = (value: unknown) =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

function constants(schema: Schema): unknown[] | undefined {
  if ('const' in schema) return [schema.const];
  if (schema.type === 'null') return [null];
  if (schema.type === 'boolean') return [true, false];
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

function build(schema: Schema): Checker {
  if (Array.isArray(schema.anyOf)) return buildAnyOf(schema, schema.anyOf);
  if ('const' in schema) {
    const expected = schema.const;
    const problem = `must be ${JSON.stringify(expected)}`;
    return (value, path) => {
      if (value !== expected) throw new Invalid(path, problem);
      return value;
    };
  }
  switch (schema.type) {
    case 'string':
      return buildString(schema);
    case 'boolean':
      return (value, path) => {
        if (value === true || value === 1 || value === '1' || value === 'true') return true;
        if (value === false || value === 0 || value === '0' || value === 'false') return false;
        throw new Invalid(path, 'must be a boolean');
      };
    case 'integer':
    case 'number':
      return buildNumber(schema);
    case 'null':
      return (value, path) => {
        if (value !== null) throw new Invalid(path, 'must be null');
        return null;
      };
    case 'array':
      return buildArray(schema);
    case 'object':
      return buildObject(schema);
    default:
      return (value) => value;
  }
}

const KIND_NAMES: Record<string, string> = {
  string: 'a string',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'a boolean',
  object: 'an object',
  array: 'an array',
};

const listKinds = (kinds: string[]) => {
  const names = kinds.map((kind) => KIND_NAMES[kind] ?? kind);
  return names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
};

function buildAnyOf(schema: Schema, branches: Schema[]): Checker {
  const choices = constants(schema);
  if (choices) {
    // 1 and "1" read the same in a message: each is named once.
    const names = new Set(choices.map((choice) => (choice === null ? 'null' : String(choice))));
    const problem = `must be one of ${[...names].join(', ')}`;
    return (value, path) => {
      if (choices.includes(value)) return value;
      throw new Invalid(path, problem);
    };
  }
  const checkers = branches.map((branch) => ({ type: branch.type, check: compile(branch) }));
  // With several kinds of value allowed (`extra`: string, number or boolean), a value of none of
  // those kinds is told all of them, not only the first one tried.
  // (`null`, and the `[]` that stands for an empty object, go without saying.)
  const kinds = [
    ...new Set(
      branches
        .filter((branch) => !(branch.type === 'array' && branch.maxItems === 0))
        .map((branch) => branch.type),
    ),
  ].filter((type): type is string => typeof type === 'string' && type !== 'null');
  const noKind = kinds.length > 1 ? `must be ${listKinds(kinds)}` : undefined;
  return (value, path) => {
    let first: Invalid | undefined;
    let kindMatched = false;
    for (const branch of checkers) {
      try {
        return branch.check(value, path);
      } catch (error) {
        if (!(error instanceof Invalid)) throw error;
        const matches = branch.type === describe(value);
        // Report the first branch whose type matched (a deeper problem in one before a shallow
        // one), not a branch of another type tried before it.
        if (!first || (matches && (!kindMatched || error.path !== path))) first = error;
        kindMatched ||= matches;
      }
    }
    if (noKind && !kindMatched) throw new Invalid(path, noKind);
    throw first ?? new Invalid(path, 'is not valid');
  };
}

function buildString(schema: Schema): Checker {
  const { minLength, maxLength, format } = schema;
  const kind: unknown = schema['x-text'];
  const pattern = schema.pattern === undefined ? undefined : new RegExp(schema.pattern);
  const tooShort = minLength === 1 ? 'must not be empty' : `must be at least ${minLength} characters`;
  const tooLong = `must be at most ${maxLength} characters`;
  const mismatch = schema.description
    ? `must be ${schema.description}`
    : 'has characters that are not allowed';
  return (input, path) => {
    if (typeof input !== 'string') throw new Invalid(path, 'must be a string');
    if (!isStorableText(input))
      throw new Invalid(path, 'must not contain NUL or unpaired surrogate characters');
    let value = input;
    if (kind === 'line') {
      const problem = lineProblem(value);
      if (problem !== undefined) throw new Invalid(path, problem);
    } else if (kind === 'lines') value = cleanLines(value);
    if (minLength !== undefined && value.length < minLength) throw new Invalid(path, tooShort);
    // A required text of nothing but spaces is as empty as no text.
    if (minLength === 1 && value.trim() === '') throw new Invalid(path, tooShort);
    if (maxLength !== undefined && value.length > maxLength) throw new Invalid(path, tooLong);
    if (pattern !== undefined && !pattern.test(value)) throw new Invalid(path, mismatch);
    if (format === 'email') {
      const checked = checkEmail(value);
      if (!checked.ok) throw new Invalid(path, checked.problem);
      value = checked.value;
      if (!EMAIL.test(value)) throw new Invalid(path, 'must be a valid e-mail address');
      // A Unicode domain is longer as punycode.
      if (maxLength !== undefined && value.length > maxLength) throw new Invalid(path, tooLong);
    }
    if (format === 'date-time') {
      const date = parseDate(value);
      if (!date) throw new Invalid(path, 'must be a date such as 2026-11-22T11:46:36+00:00');
      return formatDate(date);
    }
    return value;
  };
}

function buildNumber(schema: Schema): Checker {
  const integer = schema.type === 'integer';
  const { minimum, maximum } = schema;
  return (value, path) => {
    const number = typeof value === 'string' && /^-?\d+(\.\d+)?$/.test(value) ? Number(value) : value;
    if (typeof number !== 'number' || !Number.isFinite(number))
      throw new Invalid(path, `must be a ${integer ? 'whole number' : 'number'}`);
    if (integer && !Number.isInteger(number)) throw new Invalid(path, 'must be a whole number');
    if (minimum !== undefined && number < minimum) throw new Invalid(path, `must be at least ${minimum}`);
    if (maximum !== undefined && number > maximum) throw new Invalid(path, `must be at most ${maximum}`);
    return number;
  };
}

function buildArray(schema: Schema): Checker {
  const { maxItems } = schema;
  const item = schema.items ? compile(schema.items) : undefined;
  return (value, path) => {
    if (!Array.isArray(value)) throw new Invalid(path, 'must be an array');
    if (maxItems !== undefined && value.length > maxItems) {
      throw new Invalid(path, maxItems === 0 ? 'must be an object' : `must have at most ${maxItems} items`);
    }
    if (!item) return value;
    let problems: Problem[] | undefined;
    const out = value.map((entry, index) => {
      try {
        return item(entry, `${path}[${index}]`);
      } catch (error) {
        problems = collect(problems, error);
        return undefined;
      }
    });
    if (problems) throw new Invalid(problems);
    return out;
  };
}

function buildObject(schema: Schema): Checker {
  const required = new Set<string>(schema.required ?? []);
  const properties = Object.entries<Schema>(schema.properties ?? {}).map(([name, property]) => ({
    name,
    required: required.has(name),
    check: compile(property),
  }));
  // A required name the schema does not describe comes first, as it did when required came first.
  const undescribed = [...required].filter((name) => !(name in (schema.properties ?? {})));
  const open = schema.patternProperties
    ? compile(Object.values<Schema>(schema.patternProperties)[0] as Schema)
    : undefined;
  return (value, path) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value))
      throw new Invalid(path, 'must be an object');
    const input = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    const prefix = path === 'body' || path === 'query' || path === 'params' ? '' : `${path}.`;
    // Made on the first problem only: a valid value, the common case, allocates nothing for it.
    let problems: Problem[] | undefined;
    for (const name of undescribed) {
      if (input[name] === undefined) problems = add(problems, `${prefix}${name}`, 'is required');
    }
    // Every field is checked, in the schema's order, so that one answer names every problem.
    for (const { name, required: needed, check } of properties) {
      const item = input[name];
      if (item === undefined) {
        if (needed) problems = add(problems, `${prefix}${name}`, 'is required');
        continue;
      }
      try {
        out[name] = check(item, `${prefix}${name}`);
      } catch (error) {
        problems = collect(problems, error);
      }
    }
    if (open) {
      for (const [name, item] of Object.entries(input)) {
        if (name.length > 200) {
          problems = add(problems, `${prefix}${name.slice(0, 40)}...`, 'name is too long');
        } else if (name === '__proto__' || name === 'constructor' || name === 'prototype') {
          problems = add(problems, `${prefix}${name}`, 'name is not allowed');
        } else {
          try {
            out[name] = open(item, `${prefix}${name}`);
          } catch (error) {
            problems = collect(problems, error);
          }
        }
      }
    }
    if (problems) throw new Invalid(problems);
    return out;
  };
}

/** The problems as one message: `a: is required; b: must be a string`. */
function messageOf(problems: readonly Problem[]): string {
  const named = problems.slice(0, MAX_NAMED).map(({ path, problem }) => `${path}: ${problem}`);
  const more = problems.length - MAX_NAMED;
  if (more > 0) named.push(`and ${more} more ${more === 1 ? 'problem' : 'problems'}`);
  return named.join('; ');
}

function run(check: Checker, value: unknown, part: 'body' | 'query' | 'params'): unknown {
  try {
    return check(value, part);
  } catch (error) {
    if (error instanceof Invalid) throw new BusinessError(messageOf(error.problems));
    throw error;
  }
}

/**
 * A validator for one request part, compiled once: answers the coerced value or throws a
 * BusinessError `<field>: <problem>` naming every problem (see messageOf).
 */
export function compileValidator(
  schema: Schema,
  part: 'body' | 'query' | 'params',
): (value: unknown) => unknown {
  const check = compile(schema);
  return (value) => run(check, value, part);
}

/** Validates `value` against `schema` (compiled on first use); see compileValidator. */
export function validate(schema: Schema, value: unknown, part: 'body' | 'query' | 'params'): unknown {
  return run(compile(schema), value, part);
}
