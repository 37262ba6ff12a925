import { readFileSync } from 'node:fs';
import { VariantDefinitionError } from './variant.types.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

/** Reads and parses one JSON file; a syntax error names its line and column. */
export function readJsonFile(file: string): Json {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new VariantDefinitionError(file, 'file', code === 'ENOENT' ? 'missing' : `unreadable (${code})`);
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  try {
    return JSON.parse(text) as Json;
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    const problem = `invalid JSON: ${message.replace(/\s*in JSON at position \d+.*$/, '').replace(/\s+/g, ' ')}`;
    if (position === null) return fail(file, endOf(text), problem);
    return fail(file, lineColumn(text, Number(position[1])), problem);
  }
}

function lineColumn(text: string, offset: number): string {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return `line ${line}, column ${offset - start + 1}`;
}

function endOf(text: string): string {
  return lineColumn(text, text.length);
}

export function fail(file: string, place: string, problem: string): never {
  throw new VariantDefinitionError(file, place, problem);
}

/** Typed accessors over parsed JSON that fail with the file and the place of the value. */
export class Checker {
  constructor(readonly file: string) {}

  fail(place: string, problem: string): never {
    return fail(this.file, place, problem);
  }

  object(value: Json | undefined, place: string): JsonObject {
    if (value === undefined) return this.fail(place, 'missing');
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return this.fail(place, 'must be an object');
    }
    return value;
  }

  /** Rejects fields not listed, which catches typos that would otherwise be silently ignored. */
  fields(value: JsonObject, place: string, allowed: readonly string[]): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) this.fail(join(place, key), 'unknown field');
    }
  }

  array(value: Json | undefined, place: string, nonEmpty = false): Json[] {
    if (value === undefined) return this.fail(place, 'missing');
    if (!Array.isArray(value)) return this.fail(place, 'must be an array');
    if (nonEmpty && value.length === 0) return this.fail(place, 'must not be empty');
    return value;
  }

  string(value: Json | undefined, place: string, pattern?: RegExp): string {
    if (value === undefined) return this.fail(place, 'missing');
    if (typeof value !== 'string') return this.fail(place, 'must be a string');
    if (pattern !== undefined && !pattern.test(value)) {
      return this.fail(place, `${JSON.stringify(value)} does not match ${pattern.source.slice(1, -1)}`);
    }
    return value;
  }

  integer(value: Json | undefined, place: string): number {
    if (value === undefined) return this.fail(place, 'missing');
    if (typeof value !== 'number' || !Number.isInteger(value)) return this.fail(place, 'must be an integer');
    return value;
  }

  number(value: Json | undefined, place: string): number {
    if (value === undefined) return this.fail(place, 'missing');
    if (typeof value !== 'number') return this.fail(place, 'must be a number');
    return value;
  }

  boolean(value: Json | undefined, place: string): boolean {
    if (value === undefined) return this.fail(place, 'missing');
    if (typeof value !== 'boolean') return this.fail(place, 'must be true or false');
    return value;
  }

  oneOf<T extends string>(value: Json | undefined, place: string, allowed: readonly T[]): T {
    const text = this.string(value, place);
    if (!(allowed as readonly string[]).includes(text)) {
      return this.fail(place, `${JSON.stringify(text)} is not one of ${allowed.join(', ')}`);
    }
    return text as T;
  }

  /** Remembers where each code was first seen and fails on a second one. */
  unique(seen: Map<string, string>, code: string, place: string): void {
    const first = seen.get(code);
    if (first !== undefined) this.fail(place, `duplicate ${JSON.stringify(code)} (first at ${first})`);
    seen.set(code, place);
  }
}

export function join(place: string, key: string | number): string {
  if (typeof key === 'number') return `${place}[${key}]`;
  return place === '' ? key : `${place}.${key}`;
}
