import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, resolve } from 'node:path';
import { z } from 'zod';
import { CorrexError } from '../../core/base/correx-error.js';
import { canonicalJson } from '../../core/events/canonical-json.js';
import type { PolicyWidening } from '../../core/policies/merge-policy.js';
import type { HookSet } from '../../core/toolintent/hook-definition.js';
import type { McpServersConfig } from '../mcp/mcp-server-config.js';

/**
 * What a workspace's own configuration asks for that can run code or widen policy: its hooks,
 * its MCP servers, the widenings of its policy overlay. None of it takes effect until the
 * operator trusted exactly this content (`digest`: the files' SHA-256s, the harness.yaml and
 * every program file inside the workspace that a hook or server names).
 */
export type WorkspaceAuthority = {
  readonly workspace: string;
  readonly files: readonly { readonly path: string; readonly sha256: string }[];
  readonly digest: string;
  readonly hooks?: HookSet;
  readonly mcpServers?: McpServersConfig;
  readonly widenings: readonly PolicyWidening[];
};

/** A headless start met workspace configuration the operator has not trusted: nothing of it ran. */
export class WorkspaceNotTrustedError extends CorrexError {
  constructor(authority: WorkspaceAuthority, changed: boolean) {
    super(
      'workspace_not_trusted',
      `${authority.workspace} ${changed ? 'changed its' : 'ships'} configuration that can run code or widen policy (${describeAuthority(authority)}) that you have not trusted${changed ? ' in this form' : ''}; nothing of it ran: review it and run correx trust ${authority.workspace}`,
    );
  }
}

/** What the authority asks for, in a few words. */
export function describeAuthority(authority: WorkspaceAuthority): string {
  const parts: string[] = [];
  const hooks = Object.values(authority.hooks ?? {}).flat().length;
  if (hooks > 0) parts.push(`${hooks} hook(s)`);
  const servers = Object.keys(authority.mcpServers ?? {});
  if (servers.length > 0) parts.push(`MCP server(s) ${servers.join(', ')}`);
  if (authority.widenings.length > 0)
    parts.push(
      `policy widening ${authority.widenings.map((widening) => `${widening.field} ${widening.value}`).join(', ')}`,
    );
  return parts.join('; ');
}

const sha256 = (bytes: Buffer | string) => createHash('sha256').update(bytes).digest('hex');

/** Program files inside the workspace a command names (`./hook.sh`, `tools/server.js`). */
function programFiles(workspace: string, argv: readonly string[]): string[] {
  const files: string[] = [];
  for (const word of argv) {
    if (word.startsWith('-') || !(word.includes('/') || word.includes('.'))) continue;
    const path = isAbsolute(word) ? word : resolve(workspace, word);
    const inside = relative(workspace, path);
    if (inside.startsWith('..') || isAbsolute(inside)) continue;
    try {
      if (statSync(path).isFile()) files.push(realpathSync(path));
    } catch {
      // Not a file: nothing of the workspace's to pin.
    }
  }
  return files;
}

/** The authority a workspace's configuration asks for, or null when it asks for none. */
export function describeWorkspaceAuthority(options: {
  readonly workspace: string;
  readonly harnessFile: { readonly path: string; readonly sha256: string };
  readonly hooks?: HookSet;
  readonly mcpServers?: McpServersConfig;
  readonly widenings: readonly PolicyWidening[];
}): WorkspaceAuthority | null {
  const hookCount = Object.values(options.hooks ?? {}).flat().length;
  const servers = options.mcpServers ?? {};
  if (hookCount === 0 && Object.keys(servers).length === 0 && options.widenings.length === 0)
    return null;
  const programs = new Set<string>();
  for (const hook of Object.values(options.hooks ?? {}).flat())
    for (const file of programFiles(options.workspace, hook.command)) programs.add(file);
  for (const server of Object.values(servers))
    if ('command' in server)
      for (const file of programFiles(options.workspace, [server.command, ...server.args]))
        programs.add(file);
  const files = [
    options.harnessFile,
    ...[...programs].sort().map((path) => ({ path, sha256: sha256(readFileSync(path)) })),
  ];
  // Pinned to content and to where each file sits in the workspace, not to the folder: a session's
  // worktree of the same commit is the same content.
  const pinned = files.map((file) => ({
    path: relative(options.workspace, file.path),
    sha256: file.sha256,
  }));
  return {
    workspace: options.workspace,
    files,
    digest: sha256(canonicalJson(pinned)),
    ...(hookCount === 0 ? {} : { hooks: options.hooks! }),
    ...(Object.keys(servers).length === 0 ? {} : { mcpServers: servers }),
    widenings: options.widenings,
  };
}

/** One line of `$CORREX_HOME/trust.jsonl`: the operator trusted (or withdrew trust in) this content. */
export const WorkspaceTrustRecordSchema = z.strictObject({
  type: z.enum(['workspace_trusted', 'workspace_trust_withdrawn']),
  workspace: z.string().min(1),
  digest: z.string().regex(/^[0-9a-f]{64}$/),
  files: z.array(
    z.strictObject({
      path: z.string().min(1),
      sha256: z.string().regex(/^[0-9a-f]{64}$/),
      /** The text trusted, kept so a changed file can be shown as a diff. */
      content: z.string().optional(),
    }),
  ),
  by: z.string().min(1),
  /** `command` (correx trust) or `prompt` (answered at a run's start). */
  via: z.enum(['command', 'prompt']),
  at: z.string().min(1),
});
export type WorkspaceTrustRecord = z.infer<typeof WorkspaceTrustRecordSchema>;

export const TRUST_FILE = 'trust.jsonl';

/**
 * The operator's trust decisions, oldest first. The file lives in correx's home, which no
 * session's tools may write; a line that does not parse is skipped (it trusts nothing).
 */
export function readTrustRecords(correxHome: string): WorkspaceTrustRecord[] {
  const path = join(correxHome, TRUST_FILE);
  if (!existsSync(path)) return [];
  return readFileSync(path, 'utf8')
    .split('\n')
    .flatMap((line) => {
      if (line.trim() === '') return [];
      try {
        const parsed = WorkspaceTrustRecordSchema.safeParse(JSON.parse(line));
        return parsed.success ? [parsed.data] : [];
      } catch {
        return [];
      }
    });
}

/** The workspace's latest trust record, whatever content it was for (null: never trusted). */
export function latestTrust(correxHome: string, workspace: string): WorkspaceTrustRecord | null {
  return readTrustRecords(correxHome).findLast((record) => record.workspace === workspace) ?? null;
}

/** Whether the operator trusted exactly this content (and has not withdrawn that trust since). */
export function isTrusted(correxHome: string, authority: WorkspaceAuthority): boolean {
  const latest = readTrustRecords(correxHome).findLast(
    (record) => record.digest === authority.digest,
  );
  return latest?.type === 'workspace_trusted';
}

/** Records that the operator trusted this content (an append; earlier decisions stay). */
export function recordTrust(
  correxHome: string,
  authority: WorkspaceAuthority,
  decision: { readonly by: string; readonly via: 'command' | 'prompt'; readonly at: string },
): WorkspaceTrustRecord {
  const record: WorkspaceTrustRecord = {
    type: 'workspace_trusted',
    workspace: authority.workspace,
    digest: authority.digest,
    files: authority.files.map((file) => ({
      ...file,
      content: readFileSync(file.path, 'utf8'),
    })),
    by: decision.by,
    via: decision.via,
    at: decision.at,
  };
  appendFileSync(join(correxHome, TRUST_FILE), `${JSON.stringify(record)}\n`, { mode: 0o600 });
  return record;
}

/**
 * Fails closed when a loaded configuration carries workspace authority the operator has not
 * trusted (or trusted in another form: a changed file asks again).
 */
export function requireTrustedWorkspace(
  correxHome: string,
  harness: { readonly untrustedAuthority?: WorkspaceAuthority },
): void {
  const authority = harness.untrustedAuthority;
  if (authority === undefined) return;
  const latest = latestTrust(correxHome, authority.workspace);
  throw new WorkspaceNotTrustedError(authority, latest?.type === 'workspace_trusted');
}

/**
 * Withdraws the operator's trust in a workspace's content (every form it was trusted in): later
 * runs fail closed again until it is trusted anew. Returns the digests withdrawn.
 */
export function withdrawTrust(
  correxHome: string,
  workspace: string,
  decision: { readonly by: string; readonly at: string },
): string[] {
  const trusted = new Map<string, WorkspaceTrustRecord>();
  for (const record of readTrustRecords(correxHome)) {
    if (record.type === 'workspace_trusted' && record.workspace === workspace)
      trusted.set(record.digest, record);
    else trusted.delete(record.digest);
  }
  for (const record of trusted.values()) {
    const withdrawn: WorkspaceTrustRecord = {
      type: 'workspace_trust_withdrawn',
      workspace,
      digest: record.digest,
      files: record.files.map(({ path, sha256: digest }) => ({ path, sha256: digest })),
      by: decision.by,
      via: 'command',
      at: decision.at,
    };
    appendFileSync(join(correxHome, TRUST_FILE), `${JSON.stringify(withdrawn)}\n`, { mode: 0o600 });
  }
  return [...trusted.keys()];
}
