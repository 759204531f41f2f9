import { Command, InvalidArgumentError } from 'commander';
import { CorrexError } from '../../../core/base/correx-error.js';
import { activeGrants, approvalGrantsProjection } from '../../../core/approvals/approval-grants.js';
import type { GrantScope } from '../../../core/approvals/approval-events.js';
import { replay } from '../../../core/events/replay.js';
import { appendToSession } from '../../../core/kernel/index.js';
import type { CommandContext } from '../cli-context.js';
import { resolveSessionRef, SESSION_ARGUMENT } from '../session-ref.js';
import { parsePersonName } from '../person-name-option.js';
import { formatJson, formatTable } from '../format.js';
import { withStore } from '../with-store.js';
import { describeGrantScope } from '../../always-allow-scope.js';
import { recordGrant } from '../../record-grant.js';

function parseInstant(value: string): string {
  const time = Date.parse(value);
  if (Number.isNaN(time))
    throw new InvalidArgumentError('expected an ISO-8601 date-time, e.g. 2026-12-01T18:00:00Z');
  return new Date(time).toISOString();
}

/** `correx grants`, `correx grant`, `correx revoke`: standing approvals of one session, scoped exactly. */
export function grantsCommands(context: CommandContext): Command[] {
  const list = new Command('grants')
    .description("list a session's standing approval grants (active ones unless --all)")
    .argument('[session]', SESSION_ARGUMENT)
    .option('--all', 'include revoked and expired grants')
    .option('--json', 'print JSON')
    .action(
      async (
        typed: string | undefined,
        options: { all?: boolean; json?: boolean },
        command: Command,
      ) => {
        await withStore(context, command, async ({ events }) => {
          const sessionId = await resolveSessionRef(events, typed, command);
          const { state } = await replay(events, approvalGrantsProjection, sessionId);
          const grants = options.all
            ? Object.values(state.grants)
            : activeGrants(state, context.clock.now());
          if (options.json) return context.out(formatJson(grants));
          if (grants.length === 0)
            return context.out(`no ${options.all ? '' : 'active '}grants for session ${sessionId}`);
          context.out(
            formatTable(
              ['GRANT', 'SCOPE', 'FOR', 'UNTIL', 'BY', 'STATE'],
              grants.map((grant) => [
                grant.grantId,
                describeGrantScope(grant.scope),
                grant.lifetime === 'stage' ? `stage ${grant.stageId ?? '?'}` : 'session',
                grant.expiresAt ?? 'revoked or session end',
                grant.by,
                grant.revoked ? 'revoked' : 'active',
              ]),
            ),
          );
        });
      },
    );

  const add = new Command('grant')
    .description(
      'allow one exact command, path pattern or host without asking again (recorded as an event)',
    )
    .argument('[session]', SESSION_ARGUMENT)
    .option('--command <line>', 'the exact command line to allow')
    .option('--path <glob>', 'a workspace path pattern to allow, with --tool')
    .option('--tool <name>', 'the tool a --path grant is for, e.g. write_file')
    .option('--host <host>', 'a host network tools may reach')
    .option('--stage <stage>', 'only in this stage (default: the whole session)')
    .option('--until <instant>', 'expires at this ISO-8601 instant', parseInstant)
    .option('--by <name>', 'who grants it (default: $USER)', parsePersonName)
    .requiredOption('--reason <text>', 'why, for the audit trail')
    .action(
      async (
        typed: string | undefined,
        options: {
          command?: string;
          path?: string;
          tool?: string;
          host?: string;
          stage?: string;
          until?: string;
          by?: string;
          reason: string;
        },
        command: Command,
      ) => {
        const scopes: GrantScope[] = [];
        if (options.command !== undefined)
          scopes.push({ kind: 'command', command: options.command });
        if (options.path !== undefined) {
          if (options.tool === undefined)
            throw new CorrexError(
              'usage',
              '--path needs --tool (the tool the pattern is allowed for)',
            );
          scopes.push({ kind: 'path', tool: options.tool, glob: options.path });
        }
        if (options.host !== undefined) scopes.push({ kind: 'host', host: options.host });
        if (scopes.length !== 1)
          throw new CorrexError(
            'usage',
            'give exactly one of --command, --path (with --tool) or --host',
          );
        await withStore(context, command, async ({ events }) => {
          const sessionId = await resolveSessionRef(events, typed, command);
          const { grantId } = await recordGrant(context, events, sessionId, {
            scope: scopes[0]!,
            stageId: options.stage ?? null,
            expiresAt: options.until ?? null,
            by: options.by ?? context.user,
            reason: options.reason,
          });
          context.out(`added ${grantId}: ${describeGrantScope(scopes[0]!)}`);
        });
      },
    );

  const revoke = new Command('revoke')
    .description('revoke a standing approval grant (recorded as an event)')
    .argument('[session]', SESSION_ARGUMENT)
    .argument('[grant]', 'grant id (see `correx grants`)')
    .option('--by <name>', 'who revokes it (default: $USER)', parsePersonName)
    .option('--reason <text>', 'why, for the audit trail', 'revoked from the command line')
    .action(
      async (
        first: string | undefined,
        second: string | undefined,
        options: { by?: string; reason: string },
        command: Command,
      ) => {
        const last = (command.optsWithGlobals() as { last?: boolean }).last === true;
        const [typed, grantId] =
          last && second === undefined ? [undefined, first] : [first, second];
        if (grantId === undefined) throw new CorrexError('usage', 'missing the grant id');
        await withStore(context, command, async ({ events }) => {
          const sessionId = await resolveSessionRef(events, typed, command);
          const { state } = await replay(events, approvalGrantsProjection, sessionId);
          const grant = state.grants[grantId];
          if (grant === undefined)
            throw new CorrexError(
              'grant_not_found',
              `session ${sessionId} has no grant ${grantId}`,
            );
          if (grant.revoked) return context.out(`${grantId} was already revoked`);
          await appendToSession(context, events, sessionId, {
            type: 'approval_grant_revoked',
            grantId,
            by: options.by ?? context.user,
            reason: options.reason,
          });
          context.out(`revoked ${grantId}`);
        });
      },
    );

  return [list, add, revoke];
}
