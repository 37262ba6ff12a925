import { runCli } from '../../src/cli/run-cli.js';
import type { Outcome } from './cli-process.js';

// For tests that run an `assay` command line in this process: the same parsing, table and
// handlers as the built command (runCli is all main.ts calls), without starting a process per
// case. Each call opens and closes its own database connection from the flags, as the command
// does; what the process alone does (signals, serving, exit, a terminal) is tested through the
// built command (cli-process.ts).

/** Runs `assay ...args` in-process: what it printed and the exit code the process would end with. */
export async function runAssay(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Outcome> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: (text) => {
      stdout += text;
    },
    stderr: (text) => {
      stderr += text;
    },
    // Nothing of the test process's environment (DATABASE_URL above all) reaches the command.
    env: { LOG_LEVEL: 'warn', ...env },
  });
  return { code, stdout, stderr };
}
