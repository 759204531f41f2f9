import { Command, CommanderError } from 'commander';
import { CorrexError } from '../../core/base/correx-error.js';
import type { ErrorCode } from '../../core/base/error-code.js';
import { exitCodeOf, EXIT_CODES } from './exit-codes.js';
import type { CliContext, CommandContext } from './cli-context.js';
import { demoCommand } from './commands/demo-command.js';
import { eventsCommand } from './commands/events-command.js';
import { exportCommand } from './commands/export-command.js';
import { grantsCommands } from './commands/grants-command.js';
import { sessionCommands } from './commands/session-commands.js';
import { showCommand } from './commands/show-command.js';
import { initCommand } from './commands/init-command.js';
import { doctorCommand } from './commands/doctor-command.js';
import { migrateCommand } from './commands/migrate-command.js';
import { sessionsCommand } from './commands/sessions-command.js';
import { storeCommand } from './commands/store-command.js';
import { verifyCommand } from './commands/verify-command.js';
import { replayCommand } from './commands/replay-command.js';
import { runCommands } from './commands/run-command.js';
import { tailCommand } from './commands/tail-command.js';
import { chatCommand } from './commands/chat-command.js';
import { serveCommand } from './commands/serve-command.js';
import { mcpCommand } from './commands/mcp-command.js';
import { policyCommand } from './commands/policy-command.js';
import { diffCommand } from './commands/diff-command.js';
import { undoCommand } from './commands/undo-command.js';
import { workerCommand } from './commands/worker-command.js';
import { worktreeCommands } from './commands/worktree-commands.js';
import { attestCommand, keysCommand } from './commands/provenance-commands.js';
import { gateCommand } from './commands/gate-command.js';
import { trustCommand } from './commands/trust-command.js';

/** The `correx` command tree. Each command lives in its own file under `commands/`. */
export function createProgram(context: CommandContext): Command {
  const program = new Command('correx')
    .description('Run LLM coding agents as deterministic, event-sourced workflows.')
    .version(context.version)
    .option(
      '--store <location>',
      'SQLite file or postgres:// URL (default: $CORREX_STORE, else $CORREX_HOME/correx.db)',
    )
    .option('--last', 'the newest session, in place of a session id')
    .showHelpAfterError('(correx --help lists the commands)')
    .addHelpText(
      'after',
      '\nExit codes: 0 success, 1 failed (a workflow or a verification), 2 usage or configuration error, 3 store unavailable,\n4 waiting for a person (run/resume: an approval, a pause, a budget; resumable), 5 cancelled.',
    )
    .configureOutput({
      writeOut: (text) => context.out(text.trimEnd()),
      writeErr: (text) => context.err(text.trimEnd()),
    })
    // Errors come back to runCli as exceptions instead of exiting the process.
    .exitOverride();
  for (const command of [
    initCommand(context),
    doctorCommand(context),
    demoCommand(context),
    ...runCommands(context),
    sessionsCommand(context),
    showCommand(context),
    eventsCommand(context),
    tailCommand(context),
    replayCommand(context),
    chatCommand(context),
    serveCommand(context),
    workerCommand(context),
    ...worktreeCommands(context),
    verifyCommand(context),
    policyCommand(context),
    diffCommand(context),
    undoCommand(context),
    ...grantsCommands(context),
    ...sessionCommands(context),
    migrateCommand(context),
    storeCommand(context),
    mcpCommand(context),
    exportCommand(context),
    keysCommand(context),
    attestCommand(context),
    gateCommand(context),
    trustCommand(context),
  ]) {
    program.addCommand(inheritSettings(command, program));
  }
  return program;
}

/** What to do next, for errors whose message comes from a layer that knows no CLI. */
const HINTS: Readonly<Partial<Record<ErrorCode, string>>> = {
  session_not_found: ' (see `correx sessions`)',
};

/** Output and error handling reach nested subcommands too (`store copy`). */
function inheritSettings(command: Command, parent: Command, path = 'correx'): Command {
  command.copyInheritedSettings(parent);
  const name = `${path} ${command.name()}`;
  // A usage error shows the one relevant usage line, not the whole help.
  command.showHelpAfterError(`usage: ${name} ${command.usage()}\n(${name} --help for more)`);
  for (const child of command.commands) inheritSettings(child, command, name);
  return command;
}

/**
 * Runs the CLI and returns the exit code: 0 ok, 1 a correx error (printed as one line, no stack
 * trace), 2 a usage error. Anything else is a bug and keeps its stack trace.
 */
export async function runCli(context: CliContext, argv: readonly string[]): Promise<number> {
  let exitCode = 0;
  const program = createProgram({ ...context, fail: (code = 1) => (exitCode = code) });
  try {
    await program.parseAsync(argv, { from: 'user' });
    return exitCode;
  } catch (error) {
    if (error instanceof CommanderError)
      return error.exitCode === 0 ? EXIT_CODES.ok : EXIT_CODES.usage;
    if (CorrexError.isInstance(error)) {
      context.err(`correx: ${error.message}${HINTS[error.code] ?? ''}`);
      return exitCodeOf(error.code);
    }
    throw error;
  }
}
