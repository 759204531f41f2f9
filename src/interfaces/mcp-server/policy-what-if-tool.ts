import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { CorrexError } from '../../core/base/correx-error.js';
import { whatIfPolicy } from '../../core/kernel/index.js';
import {
  proposedCallPaths,
  whatIfProposedCall,
  type ProposedCall,
} from '../../core/kernel/index.js';
import { createDiskWorldProbe } from '../../infrastructure/world-probe/disk-world-probe.js';
import { parseCandidatePolicy } from '../candidate-policy.js';
import type { McpServerDeps } from './mcp-server-deps.js';
import { answer, jsonResult, knownSession } from './tool-result.js';

/**
 * `policy_what_if`: how a session's policy (and a candidate one) would treat a proposed call,
 * and which recorded calls a candidate policy would treat differently (`correx policy what-if`).
 * Nothing runs, nothing is recorded, nothing is approved; only the proposed call's paths are
 * observed on disk.
 */
export function registerPolicyWhatIfTool(server: McpServer, deps: McpServerDeps): void {
  server.registerTool(
    'policy_what_if',
    {
      title: 'Policy what-if',
      description:
        "Without running anything: with `tool` (and `args`), how the session's recorded policy would assess that call now (the paths it names observed on disk now) (verdict, tier, findings) and whether its mode and grants would let it run or a person must decide; with `policy` (a harness.yaml or policy document, YAML or JSON), the same under that candidate, and every recorded call of the session whose verdict or tier it would change (correx policy what-if).",
      inputSchema: {
        sessionId: z.string().min(1),
        tool: z.string().optional().describe('the proposed call: a tool the session offers'),
        args: z.record(z.string(), z.unknown()).optional().describe("the call's arguments"),
        stage: z.string().optional().describe('the stage it would run in (default: the latest)'),
        policy: z.string().optional().describe('a candidate policy as YAML or JSON text'),
      },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    (args) =>
      answer(async () => {
        if (args.tool === undefined && args.policy === undefined)
          throw new CorrexError('usage', 'give a proposed call (tool, args), a policy, or both');
        const sessionId = await knownSession(deps.store, args.sessionId);
        const events = await deps.store.read(sessionId);
        const candidate =
          args.policy === undefined
            ? undefined
            : parseCandidatePolicy(args.policy, 'the policy argument');
        let proposed = null;
        if (args.tool !== undefined) {
          const call: ProposedCall = {
            tool: args.tool,
            args: args.args ?? {},
            ...(args.stage === undefined ? {} : { stageId: args.stage }),
          };
          // The paths it names are observed now, as the kernel would before assessing it live
          // (only metadata, and hashes of files inside the workspace); nothing is recorded.
          const workspace = (await deps.store.read(sessionId, { limit: 5 })).find(
            (event) => event.payload.type === 'session_created',
          )?.payload as { workspace?: string } | undefined;
          const probe = createDiskWorldProbe({
            hashOnlyUnder: workspace?.workspace === undefined ? [] : [workspace.workspace],
          });
          const observations = await Promise.all(
            proposedCallPaths(events, call).map((path) => probe.observe(path)),
          );
          proposed = whatIfProposedCall(events, call, candidate, observations);
        }
        if (proposed !== null && !proposed.ok) throw new CorrexError('usage', proposed.reason);
        return jsonResult({
          sessionId,
          proposedCall: proposed,
          recordedCalls: candidate === undefined ? null : whatIfPolicy(events, candidate),
        });
      }),
  );
}
