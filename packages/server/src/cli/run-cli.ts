import { type ParseArgsConfig, parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { openDatabase } from '../db/connect.js';
import { migrateToLatest } from '../db/migrate.js';
import { VERSION } from '../version.js';
import { type CliIo, type Command, type OptionSpec, UsageError } from './command.js';
import { COMMANDS, GLOBAL_OPTIONS } from './command-table.js';
import { cliFailure } from './errors.js';
import { commandHelp, generalHelp, groupHelp } from './help.js';

/**
 * The `assay` command line: finds the command in the table (command-table.ts), parses its options
 * strictly (its own and the global ones, nothing else), answers help made from the same table,
 * opens the database and runs the command. Answers the exit code; never touches the process, so
 * tests run commands in-process with their own `io`.
 */

type ParseOptions = NonNullable<ParseArgsConfig['options']>;

const toParse = (options: Record<string, OptionSpec>): ParseOptions =>
  Object.fromEntries(
    Object.entries(options).map(([name, { type, multiple, short }]) => [
      name,
      { type, ...(multiple ? { multiple } : {}), ...(short ? { short } : {}) },
    ]),
  );

const GLOBAL = toParse(GLOBAL_OPTIONS);

/** Every option any command takes, to find the command's words before parsing strictly. */
const ANY_OPTION: ParseOptions = Object.assign(
  {},
  ...COMMANDS.map((command) => toParse(command.options)),
  GLOBAL,
);

const find = (name: string) => COMMANDS.find((command) => command.name === name);
const groupOf = (word: string) => COMMANDS.filter((command) => command.name.startsWith(`${word} `));

/**
 * A failure as the command line shows it, a line on stderr and an exit code: a usage error here, any
 * other through `cliFailure` (`cli/errors.ts`), the one mapping of domain errors to the CLI.
 */
export function failure(error: unknown): { line: string; code: number } {
  if (error instanceof UsageError) {
    const help = error.command ? `assay help ${error.command}` : 'assay --help';
    return { line: `assay: ${error.message} (see ${help})`, code: 2 };
  }
  const { message, exitCode } = cliFailure(error);
  return { line: `assay: ${message}`, code: exitCode };
}

const usage = (message: string, command?: string) => {
  const error = new UsageError(message);
  error.command = command;
  return error;
};

/** parseArgs' complaint in one line, naming the option and the command. */
function usageOf(error: unknown, command?: Command): UsageError {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const option = /Option '(-[^' ]+)/.exec(message)?.[1] ?? /Unknown option '([^']+)'/.exec(message)?.[1];
  const name = command?.name;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option) {
    if (!command) return usage(`unknown option ${option}`);
    const bare = option.replace(/^--/, '');
    const instead = option.startsWith('--') ? command.refused?.[bare] : undefined;
    if (instead) return usage(instead, name);
    const elsewhere = option.startsWith('--') && COMMANDS.some((other) => bare in other.options);
    return usage(
      elsewhere ? `${option} is not an option of ${name}` : `unknown option ${option} for ${name}`,
      name,
    );
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option) {
    if (message.includes('does not take an argument')) return usage(`${option} takes no value`, name);
    if (message.includes('ambiguous'))
      return usage(`${option} needs a value; one that starts with a dash is written ${option}=-VALUE`, name);
    return usage(`${option} needs a value`, name);
  }
  return usage((message.split('\n')[0] as string).replace(/\. To specify .*$/, ''), name);
}

function strict(argv: string[], options: ParseOptions, command?: Command) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw usageOf(error, command);
  }
}

/** The help a topic asks for (`assay help users create`, `assay help users`, `assay help`). */
function helpFor(topic: string[]): string {
  if (topic.length === 0) return generalHelp();
  const command = find(topic.join(' '));
  if (command) return commandHelp(command);
  const group = topic.length === 1 ? groupOf(topic[0] as string) : [];
  if (group.length > 0) return groupHelp(topic[0] as string, group);
  throw usage(`unknown command: ${topic.join(' ')}`);
}

// ---- running ----

const text = (value: unknown) => (typeof value === 'string' ? value : undefined);

/** Runs one command line; answers its exit code. Nothing is opened before the line is known to be good. */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    const { line, code } = failure(error);
    io.stderr(`${line}\n`);
    return code;
  }
}

async function dispatch(argv: string[], io: CliIo): Promise<number> {
  const print = (line: string) => io.stdout(`${line}\n`);
  // A first, lenient reading only finds the command's words; options are checked below.
  const { positionals: words } = parseArgs({
    args: argv,
    options: ANY_OPTION,
    allowPositionals: true,
    strict: false,
  });
  const [first, second] = words;
  if (first === 'help') {
    const { positionals } = strict(argv, GLOBAL);
    print(helpFor(positionals.slice(1)));
    return 0;
  }
  const command = (second !== undefined && find(`${first} ${second}`)) || find(first ?? '');
  if (!command) {
    const { values } = strict(argv, first === undefined ? GLOBAL : ANY_OPTION);
    if (values.version) {
      print(`assay ${VERSION}`);
      return 0;
    }
    if (first === undefined) {
      print(generalHelp());
      return 0;
    }
    const group = groupOf(first);
    if (group.length > 0 && values.help && second === undefined) {
      print(groupHelp(first, group));
      return 0;
    }
    if (group.length > 0 && second === undefined) {
      throw usage(
        `${first} needs a command: ${group.map((one) => one.name.split(' ')[1]).join(', ')}`,
        first,
      );
    }
    throw usage(`unknown command: ${words.join(' ')}`);
  }

  const { values, positionals } = strict(argv, { ...GLOBAL, ...toParse(command.options) }, command);
  if (values.version) {
    print(`assay ${VERSION}`);
    return 0;
  }
  if (values.help) {
    print(commandHelp(command));
    return 0;
  }
  const declared = command.args ?? [];
  const args = positionals.slice(command.name.split(' ').length);
  if (args.length > declared.length) {
    const extra = args.slice(declared.length).join(' ');
    throw usage(
      declared.length === 0
        ? `${command.name} takes no arguments, got: ${extra}`
        : `${command.name} takes ${declared.map((arg) => arg.name).join(' ')}, and got more: ${extra}`,
      command.name,
    );
  }
  declared.forEach((arg, index) => {
    if (arg.missing && !args[index]) throw usage(arg.missing, command.name);
  });
  for (const [name, option] of Object.entries(command.options)) {
    const value = values[name];
    if (option.required && (typeof value !== 'string' || value === ''))
      throw usage(`--${name} is required`, command.name);
  }

  const config = loadConfig(io.env, {
    data: text(values.data),
    databaseUrl: text(values['database-url']),
    port: text(values.port),
    host: text(values.host),
  });
  const db = openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  let exitCode = 0;
  const context = {
    values,
    args: declared.map((_, index) => args[index]),
    db,
    config,
    io,
    print,
    json: (value: unknown) => print(JSON.stringify(value)),
    exitCode: (code: number) => {
      exitCode = code;
    },
  };
  if (command.ownsDatabase) {
    await command.run(context);
    return exitCode;
  }
  try {
    if (command.migrate) await migrateToLatest(db.kysely);
    await command.run(context);
  } catch (error) {
    // A handler's usage error (`users update` without a field) points at the command's help too.
    if (error instanceof UsageError) error.command ??= command.name;
    throw error;
  } finally {
    await db.close();
  }
  return exitCode;
}
