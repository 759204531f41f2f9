import { existsSync, readFileSync, realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import { Command } from 'commander';
import { CorrexError } from '../../../core/base/correx-error.js';
import { loadHarnessConfig } from '../../../infrastructure/config/load-harness-config.js';
import {
  describeAuthority,
  latestTrust,
  recordTrust,
  withdrawTrust,
  WorkspaceNotTrustedError,
  type WorkspaceAuthority,
} from '../../../infrastructure/config/workspace-trust.js';
import { unifiedDiff } from '../../unified-diff.js';
import type { CommandContext } from '../cli-context.js';

/**
 * `correx trust <workspace>`: the operator reviews what a workspace's own configuration asks for
 * that can run code or widen policy (shown, with a diff against what was trusted before) and
 * trusts exactly that content. A later change of any of those files asks again.
 */
export function trustCommand(context: CommandContext): Command {
  return new Command('trust')
    .description(
      "trust a workspace's own hooks, MCP servers and policy widenings, pinned to their content",
    )
    .argument('<workspace>', 'the workspace folder')
    .option('--withdraw', 'withdraw your trust: its configuration stops taking effect')
    .action(async (folder: string, options: { withdraw?: boolean }) => {
      const path = resolve(folder);
      if (!existsSync(path)) throw new CorrexError('usage', `${path} does not exist`);
      const workspace = realpathSync(path);
      if (options.withdraw === true) {
        const withdrawn = withdrawTrust(context.correxHome, workspace, {
          by: context.user,
          at: context.clock.now(),
        });
        context.out(
          withdrawn.length === 0
            ? `${workspace} was not trusted`
            : `withdrew trust in ${withdrawn.length} form(s) of ${workspace}'s configuration`,
        );
        return;
      }
      const harness = await loadHarnessConfig({ correxHome: context.correxHome, workspace });
      const authority = harness.untrustedAuthority ?? harness.trustedAuthority;
      if (authority === undefined) {
        context.out(
          `nothing to trust: ${workspace}'s configuration neither runs code nor widens policy`,
        );
        return;
      }
      if (harness.trustedAuthority !== undefined) {
        context.out(
          `already trusted: ${describeAuthority(authority)} (${authority.digest.slice(0, 12)})`,
        );
        return;
      }
      showAuthority(context, authority);
      const record = recordTrust(context.correxHome, authority, {
        by: context.user,
        via: 'command',
        at: context.clock.now(),
      });
      context.out(
        `trusted by ${record.by}: ${record.digest.slice(0, 12)}; a change to any of these files asks again`,
      );
    });
}

/** What the authority asks for, each file with its digest, and a diff of what changed since trusted. */
function showAuthority(context: CommandContext, authority: WorkspaceAuthority): void {
  const workspace = authority.workspace;
  const previous = latestTrust(context.correxHome, workspace);
  context.out(`${workspace} asks for: ${describeAuthority(authority)}`);
  for (const file of authority.files) {
    const before = previous?.files.find((earlier) => earlier.path === file.path);
    if (before === undefined) {
      context.out(`  ${file.path} sha256:${file.sha256.slice(0, 12)} (new)`);
      continue;
    }
    if (before.sha256 === file.sha256) {
      context.out(`  ${file.path} sha256:${file.sha256.slice(0, 12)} (unchanged)`);
      continue;
    }
    context.out(
      `  ${file.path} sha256:${before.sha256.slice(0, 12)} → ${file.sha256.slice(0, 12)} (changed since you trusted it):`,
    );
    const diff =
      before.content === undefined
        ? null
        : unifiedDiff(before.content, readFileSync(file.path, 'utf8'));
    for (const line of diff ?? ['    (no text to compare)']) context.out(`    ${line}`);
  }
}

/**
 * Before a run starts on a terminal: a workspace whose own configuration asks for authority the
 * operator has not trusted in this form is shown, and trusted only on a typed yes (recorded as
 * via `prompt`). Without a terminal nothing is asked: the session setup fails closed.
 */
export async function askWorkspaceTrust(context: CommandContext, folder: string): Promise<void> {
  if (context.ask === undefined || !existsSync(folder)) return;
  const workspace = realpathSync(folder);
  const harness = await loadHarnessConfig({ correxHome: context.correxHome, workspace });
  const authority = harness.untrustedAuthority;
  if (authority === undefined) return;
  const changed = latestTrust(context.correxHome, workspace)?.type === 'workspace_trusted';
  showAuthority(context, authority);
  const answer = await context.ask(
    'Trust this configuration (it runs with your rights in the sandbox)? [y/N] ',
    new AbortController().signal,
  );
  if (answer === null || !/^y(es)?$/i.test(answer.trim()))
    throw new WorkspaceNotTrustedError(authority, changed);
  const record = recordTrust(context.correxHome, authority, {
    by: context.user,
    via: 'prompt',
    at: context.clock.now(),
  });
  context.out(`trusted by ${record.by}: ${record.digest.slice(0, 12)}`);
}
