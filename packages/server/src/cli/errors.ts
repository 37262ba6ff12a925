import { DomainError } from '../domain/errors.js';

/** What the command line prints for a failed command (after `assay: `) and the code it exits with. */
export interface CliFailure {
  message: string;
  exitCode: number;
}

/**
 * The one mapping of errors to the command line. A domain error (a business failure, something
 * not found) is the operator's to fix: its message as it stands, exit 1. Anything else (a database
 * that cannot be reached, a file that cannot be read) is shown by its message too, never a stack
 * trace, and also exits 1. Usage errors (exit 2) are the argument parser's (`failure()` in `run-cli.ts`,
 * which calls this for every other error).
 */
export function cliFailure(error: unknown): CliFailure {
  if (error instanceof DomainError) return { message: error.message, exitCode: 1 };
  return { message: error instanceof Error ? error.message : String(error), exitCode: 1 };
}
