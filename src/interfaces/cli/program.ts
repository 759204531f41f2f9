import { Command, CommanderError } from 'commander';
import { CorrexError } from '../../core/base/correx-error.js';
import type { ErrorCode } from '../../core/base/error-code.js';
import { exitCodeOf, EXIT_CODES } from './exit-codes.js';
import type { CliContext, CommandContext } from './cli-context.js';
type CommandFactory = (context: CommandContext) => Command | Command[];

/**
 * Each command's module, in the order `--help` lists them, with the command names it defines.
 * Modules load on use: a command line naming one command loads only that module (and what it
 * imports), so `--version` or `sessions` does not pay for the kernel, the server and the rest.
 */
const COMMAND_MODULES: readonly {
  readonly names: readonly string[];
  load(): Promise<CommandFactory>;
}[] = [
  { names: ['init'], load: async () => (await import('./commands/init-command.js')).initCommand },
  {
    names: ['doctor'],
    load: async () => (await import('./commands/doctor-command.js')).doctorCommand,
  },
  { names: ['demo'], load: async () => (await import('./commands/demo-command.js')).demoCommand },
  {
    names: ['run', 'resume', 'continue'],
    load: async () => (await import('./commands/run-command.js')).runCommands,
  },
  {
    names: ['sessions'],
    load: async () => (await import('./commands/sessions-command.js')).sessionsCommand,
  },
  { names: ['show'], load: async () => (await import('./commands/show-command.js')).showCommand },
  {
    names: ['events'],
    load: async () => (await import('./commands/events-command.js')).eventsCommand,
  },
  { names: ['tail'], load: async () => (await import('./commands/tail-command.js')).tailCommand },
  {
    names: ['replay'],
    load: async () => (await import('./commands/replay-command.js')).replayCommand,
  },
  {
    names: ['compare'],
    load: async () => (await import('./commands/compare-command.js')).compareCommand,
  },
  { names: ['eval'], load: async () => (await import('./commands/eval-command.js')).evalCommand },
  { names: ['chat'], load: async () => (await import('./commands/chat-command.js')).chatCommand },
  {
    names: ['serve'],
    load: async () => (await import('./commands/serve-command.js')).serveCommand,
  },
  {
    names: ['worker'],
    load: async () => (await import('./commands/worker-command.js')).workerCommand,
  },
  {
    names: ['branch', 'merge', 'discard'],
    load: async () => (await import('./commands/worktree-commands.js')).worktreeCommands,
  },
  {
    names: ['verify'],
    load: async () => (await import('./commands/verify-command.js')).verifyCommand,
  },
  {
    names: ['policy'],
    load: async () => (await import('./commands/policy-command.js')).policyCommand,
  },
  { names: ['diff'], load: async () => (await import('./commands/diff-command.js')).diffCommand },
  { names: ['undo'], load: async () => (await import('./commands/undo-command.js')).undoCommand },
  { names: ['fork'], load: async () => (await import('./commands/fork-command.js')).forkCommand },
  {
    names: ['grants', 'grant', 'revoke'],
    load: async () => (await import('./commands/grants-command.js')).grantsCommands,
  },
  {
    names: ['approvals', 'approve', 'deny', 'steer', 'redirect', 'pause', 'cancel'],
    load: async () => (await import('./commands/session-commands.js')).sessionCommands,
  },
  {
    names: ['migrate'],
    load: async () => (await import('./commands/migrate-command.js')).migrateCommand,
  },
  {
    names: ['store'],
    load: async () => (await import('./commands/store-command.js')).storeCommand,
  },
  { names: ['acp'], load: async () => (await import('./commands/acp-command.js')).acpCommand },
  { names: ['mcp'], load: async () => (await import('./commands/mcp-command.js')).mcpCommand },
  {
    names: ['export'],
    load: async () => (await import('./commands/export-command.js')).exportCommand,
  },
  {
    names: ['keys'],
    load: async () => (await import('./commands/provenance-commands.js')).keysCommand,
  },
  {
    names: ['attest'],
    load: async () => (await import('./commands/provenance-commands.js')).attestCommand,
  },
  { names: ['gate'], load: async () => (await import('./commands/gate-command.js')).gateCommand },
  {
    names: ['trust'],
    load: async () => (await import('./commands/trust-command.js')).trustCommand,
  },
];

/** Global options that take a value, so the command name is found after it. */
const VALUED_GLOBAL_OPTIONS = new Set(['--store']);

/**
 * The one command a command line names, or null when it names none (help, `--version`, a
 * mistyped name): then every module loads, so help and suggestions see them all.
 */
function namedCommand(argv: readonly string[]): string | null {
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]!;
    if (arg === '--') return null;
    if (VALUED_GLOBAL_OPTIONS.has(arg)) {
      index += 1;
      continue;
    }
    if (arg.startsWith('-')) continue;
    return arg === 'help' ? null : arg;
  }
  return null;
}

/** The `correx` command tree, with the modules of the commands `argv` needs. */
export async function createProgram(
  context: CommandContext,
  argv: readonly string[] = [],
): Promise<Command> {
  const name = namedCommand(argv);
  const wanted = COMMAND_MODULES.filter((module) => name !== null && module.names.includes(name));
  // `--version` alone needs no command at all.
  const versionOnly =
    name === null && argv.length > 0 && argv.every((arg) => arg === '--version' || arg === '-V');
  const modules = versionOnly ? [] : wanted.length > 0 ? wanted : COMMAND_MODULES;
  const factories = await Promise.all(modules.map((module) => module.load()));
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
  for (const command of factories.flatMap((factory) => factory(context))) {
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
  const program = await createProgram({ ...context, fail: (code = 1) => (exitCode = code) }, argv);
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
