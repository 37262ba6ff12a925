import type { Config } from '../config.js';
import type { Db } from '../db/database.js';

/**
 * The shape of one `assay` command as the table in command-table.ts declares it: help and parsing
 * are both made from these declarations (run-cli.ts), so they cannot disagree.
 */

/** One option of a command (or of every command). */
export interface OptionSpec {
  type: 'string' | 'boolean';
  /** May be given several times; the value is then a list. */
  multiple?: boolean;
  /** A one-letter alias (`-h`). */
  short?: string;
  /** The placeholder of the value in help: `E`, `ID`, `"members groups ..."`. */
  value?: string;
  /** Refused with `--NAME is required` (exit code 2) when missing or empty. */
  required?: boolean;
  /** One line for the command's help. */
  description: string;
}

/** A positional argument after the command's name. */
export interface ArgumentSpec {
  /** The placeholder in help: `ID`, `FILE`. */
  name: string;
  /** The usage error when it is missing; an argument without one is optional. */
  missing?: string;
  description: string;
}

type OptionValue<O extends OptionSpec> = O['type'] extends 'boolean'
  ? boolean
  : O['multiple'] extends true
    ? string[]
    : string;

/** The parsed options of a command, typed from its declaration (a required string is always there). */
export type OptionValues<O extends Record<string, OptionSpec>> = {
  [K in keyof O as O[K]['required'] extends true ? K : never]: OptionValue<O[K]>;
} & {
  [K in keyof O as O[K]['required'] extends true ? never : K]?: OptionValue<O[K]>;
};

/** Options as parseArgs answers them before a command's declarations give them types. */
export type ParsedValues = Record<string, string | boolean | (string | boolean)[] | undefined>;

/** Where a command writes, what it reads from the process; tests pass their own. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  env: NodeJS.ProcessEnv;
  /** A terminal to draw progress on (stderr when it is one); none in tests and pipes. */
  terminal?: NodeJS.WriteStream;
  /** Serving belongs to the process (listen, signals, shutdown): only main.ts provides it. */
  serve?(db: Db, config: Config, setupFirst: boolean): Promise<void>;
}

/** What a command's handler is given. */
export interface CommandContext<V> {
  /** The options as parsed: the command's own (typed from its declarations) and the global ones. */
  values: V;
  /** The positional arguments after the command's name, as declared (a missing one is undefined). */
  args: (string | undefined)[];
  db: Db;
  config: Config;
  io: CliIo;
  /** One line on stdout. */
  print(line: string): void;
  /** A value as one line of JSON on stdout (what `--json` prints). */
  json(value: unknown): void;
  /** Ends with this exit code once the command is done, without an error line (`members import`). */
  exitCode(code: number): void;
}

export interface CommandSpec<O extends Record<string, OptionSpec>> {
  /** One or two words: `setup`, `users create`. */
  name: string;
  /** One line for `assay --help`. */
  summary: string;
  /** Lines of explanation for `assay help COMMAND`. */
  details?: string[];
  args?: ArgumentSpec[];
  options: O;
  /** What the refusal of an option this command does not take says instead, when it can say better. */
  refused?: Record<string, string>;
  /** Whether the database is migrated before the handler runs (`setup` and `serve` do it themselves). */
  migrate: boolean;
  /** The handler keeps the database open and closes it itself (`serve`). */
  ownsDatabase?: boolean;
  run(context: CommandContext<OptionValues<O>>): Promise<void>;
}

/** A command of the table, its option types erased. */
export interface Command {
  name: string;
  summary: string;
  details?: string[];
  args?: ArgumentSpec[];
  options: Record<string, OptionSpec>;
  refused?: Record<string, string>;
  migrate: boolean;
  ownsDatabase?: boolean;
  run(context: CommandContext<ParsedValues>): Promise<void>;
}

/**
 * Declares a command; its handler's options are typed from its own declarations. The one cast of
 * the table: run-cli.ts parses with exactly these declarations, so the values have these types.
 */
export function command<const O extends Record<string, OptionSpec>>(spec: CommandSpec<O>): Command {
  return spec as unknown as Command;
}

/** A command line that cannot be run as given: one line, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
  /** The command it concerns, for the pointer to its help. */
  command?: string;
}
