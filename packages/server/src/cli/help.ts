import type { Command, OptionSpec } from './command.js';
import { COMMANDS, GLOBAL_OPTIONS } from './command-table.js';

/** The help texts of `assay`, made from the table of commands, as parsing is (run-cli.ts). */

const pad = (text: string, width: number) => (text.length >= width ? `${text}  ` : text.padEnd(width));
const withArgs = (command: Command) =>
  [command.name, ...(command.args ?? []).map((arg) => (arg.missing ? arg.name : `[${arg.name}]`))].join(' ');
const flag = (name: string, option: OptionSpec) =>
  `--${name}${option.value ? ` ${option.value}` : ''}${option.short ? `, -${option.short}` : ''}`;

function commandLines(commands: readonly Command[]): string[] {
  const width = Math.max(...commands.map((command) => withArgs(command).length)) + 2;
  return commands.map((command) => `  ${pad(withArgs(command), width)}${command.summary}`);
}

function optionLines(options: Record<string, OptionSpec>): string[] {
  const entries = Object.entries(options);
  const width = Math.max(...entries.map(([name, option]) => flag(name, option).length)) + 2;
  return entries.map(
    ([name, option]) =>
      `  ${pad(flag(name, option), width)}${option.description}${option.required ? ' (required)' : ''}`,
  );
}

/** `assay --help`: the global options and every command, one line each. */
export function generalHelp(): string {
  return [
    'Usage: assay <command> [options]',
    '       assay help <command>     what a command does and the options it takes (or: assay <command> --help)',
    '',
    'Commands:',
    ...commandLines(COMMANDS),
    '',
    'Options on every command:',
    ...optionLines(GLOBAL_OPTIONS),
    '',
  ].join('\n');
}

/** The synopsis of a command: required options bare, the others in brackets, wrapped. */
export function synopsis(command: Command): string {
  const parts = Object.entries(command.options).map(([name, option]) => {
    const text = `--${name}${option.value ? ` ${option.value}` : ''}${option.multiple ? ' ...' : ''}`;
    return option.required ? text : `[${text}]`;
  });
  const lines = [`Usage: assay ${withArgs(command)}`];
  for (const part of parts) {
    if (`${lines.at(-1)} ${part}`.length > 100) lines.push(`         ${part}`);
    else lines[lines.length - 1] += ` ${part}`;
  }
  return lines.join('\n');
}

/** `assay help COMMAND`, `assay COMMAND --help`: one command, its arguments and options. */
export function commandHelp(command: Command): string {
  const args = command.args ?? [];
  const width = Math.max(0, ...args.map((arg) => arg.name.length)) + 2;
  const globals = Object.entries(GLOBAL_OPTIONS)
    .map(([name, option]) => flag(name, option))
    .join(', ');
  return [
    synopsis(command),
    '',
    `${command.summary[0]?.toUpperCase()}${command.summary.slice(1)}.`,
    ...(command.details ?? []),
    ...(args.length > 0
      ? ['', 'Arguments:', ...args.map((arg) => `  ${pad(arg.name, width)}${arg.description}`)]
      : []),
    ...(Object.keys(command.options).length > 0 ? ['', 'Options:', ...optionLines(command.options)] : []),
    '',
    `Options on every command: ${globals} (see assay --help)`,
    '',
  ].join('\n');
}

/** `assay help users`: the commands of a group. */
export function groupHelp(word: string, commands: readonly Command[]): string {
  return [
    `Usage: assay ${word} <command> [options]`,
    '',
    `Commands of assay ${word} (assay help ${word} <command> describes one):`,
    ...commandLines(commands),
    '',
  ].join('\n');
}
