import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { createInferenceRouter } from '../core/inference/inference-router.js';
import type { ModelProfile } from '../core/inference/model-profile.js';
import { createKernelConfig, type KernelConfig } from '../core/kernel/index.js';
import { sessionProjection } from '../core/sessions/session-projection.js';
import type { Workflow } from '../core/transitions/workflow.js';
import { loadHarnessConfig } from '../infrastructure/config/load-harness-config.js';
import { gitPathsOf } from '../infrastructure/workspace/git-paths.js';
import { parseCandidatePolicy } from '../interfaces/candidate-policy.js';
import type { ForkConfiguration, ForkConfigurationChange } from '../interfaces/session-host.js';
import type { ForkContext } from '../interfaces/session-fork.js';
import { ForkPointError } from '../interfaces/fork-point.js';
import {
  protectPolicy,
  reachableSubWorkflows,
  resolveModels,
  resolveWorkflow,
  SessionSetupError,
  type SessionSetupOptions,
} from './session-setup.js';

/**
 * What a fork goes on with when it changes more than the mode: `--model` (one profile runs every
 * stage), `--profile` (the router holds these profiles and routes each stage among them, as a
 * session started without `--model` does), `--policy FILE` (a `harness.yaml` or policy document,
 * protected as any session's policy is: correx's home, the store and `.git` never writable),
 * `--workflow` (a configured workflow or a workflow YAML file, which must hold the stages the
 * fork is in and offer only tools the parent's configuration has). Everything else is the
 * parent's recorded configuration, behaviour flags included. Every name is checked here,
 * before anything is written; the workflow's fit to the prefix when the fork knows its point.
 */
export async function forkConfiguration(
  options: SessionSetupOptions,
  change: ForkConfigurationChange,
): Promise<ForkConfiguration> {
  if (change.model !== undefined && (change.profiles?.length ?? 0) > 0)
    throw new SessionSetupError(
      '--model runs every stage on one profile and --profile routes among several: give one of them',
    );
  const harness = await loadHarnessConfig({ correxHome: options.correxHome });
  const wanted = change.model === undefined ? (change.profiles ?? []) : [change.model];
  let routed: readonly ModelProfile[] | null = null;
  if (wanted.length > 0) {
    const { profiles } = resolveModels(harness, options.env, options.correxHome);
    const unknown = wanted.filter((id) => !profiles.some((profile) => profile.id === id));
    if (unknown.length > 0)
      throw new SessionSetupError(
        `no model profile ${unknown.map((id) => `"${id}"`).join(', ')} in harness.yaml (configured: ${profiles.map((p) => p.id).join(', ') || 'none'})`,
      );
    routed = wanted.map((id) => profiles.find((profile) => profile.id === id)!);
  }
  let policyFile: { readonly path: string; readonly sha256: string; readonly text: string } | null =
    null;
  if (change.policyFile !== undefined) {
    const path = resolve(change.policyFile);
    let bytes: Buffer;
    try {
      bytes = readFileSync(path);
    } catch (error) {
      throw new SessionSetupError(
        `cannot read the policy file ${path}: ${(error as Error).message}`,
      );
    }
    policyFile = {
      path,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      text: bytes.toString('utf8'),
    };
  }
  const candidatePolicy =
    policyFile === null ? null : parseCandidatePolicy(policyFile.text, policyFile.path);
  const workflow =
    change.workflow === undefined ? null : await resolveWorkflow(change.workflow, harness);

  const configure = (parent: KernelConfig, fork: ForkContext): KernelConfig => {
    if (workflow !== null) checkWorkflowFits(workflow.workflow, parent, fork);
    const parentPayload = fork.prefix[0]?.payload;
    const parentFiles =
      parentPayload?.type === 'session_configured' ? (parentPayload.files ?? []) : [];
    const files = [
      ...parentFiles,
      ...(policyFile === null ? [] : [{ path: policyFile.path, sha256: policyFile.sha256 }]),
      ...(workflow?.file === undefined ? [] : [workflow.file]),
    ];
    const policy =
      candidatePolicy === null
        ? parent.policy
        : {
            ...parent.policy,
            policy: protectPolicy(
              candidatePolicy,
              fork.workspace,
              options,
              // The fork's workspace is rebuilt after this: its `.git` is the parent's, copied.
              gitPathsOf(parentWorkspaceOf(fork)).map((path) =>
                resolve(fork.workspace, relative(parentWorkspaceOf(fork), path)),
              ),
            ),
          };
    return createKernelConfig({
      workflow: workflow?.workflow ?? parent.workflow,
      subWorkflows:
        workflow === null
          ? [...(parent.subWorkflows?.values() ?? [])]
          : reachableSubWorkflows(workflow.workflow, harness.workflows),
      tools: [...parent.tools.values()],
      policy,
      router: routed === null ? parent.router : createInferenceRouter({ profiles: routed }),
      validators: parent.validators,
      tokenizer: parent.tokenizer,
      homeDirectory: parent.homeDirectory,
      idempotentTools: [...parent.idempotentTools],
      limits: parent.limits,
      sha256: parent.sha256,
      behaviour: parent.behaviour,
      journalSummary: parent.journalSummary,
      ...(parent.checks === undefined ? {} : { checks: parent.checks }),
      ...(parent.instructions === undefined ? {} : { instructions: parent.instructions }),
      ...(parent.hooks === undefined ? {} : { hooks: parent.hooks }),
      ...(parent.knowledge === undefined ? {} : { knowledge: parent.knowledge }),
      ...(parent.budgets === undefined ? {} : { budgets: parent.budgets }),
      ...(files.length === 0 ? {} : { configurationFiles: files }),
    });
  };
  return {
    configure,
    ...(change.model === undefined ? {} : { modelProfile: change.model }),
    changed: {
      ...(change.model === undefined && (change.profiles?.length ?? 0) > 0
        ? { profiles: [...wanted] }
        : {}),
      ...(policyFile === null
        ? {}
        : { policy: { path: policyFile.path, sha256: policyFile.sha256 } }),
      ...(workflow === null ? {} : { workflow: workflow.workflow.id }),
    },
  };
}

function parentWorkspaceOf(fork: ForkContext): string {
  for (const event of fork.prefix)
    if (event.payload.type === 'session_created') return event.payload.workspace;
  return fork.workspace;
}

/**
 * The fork goes on in the stage its prefix is in (or starts the next one): the workflow must
 * hold them, and its stages may offer only tools the parent's configuration describes (the fork
 * records no new tool definitions).
 */
function checkWorkflowFits(workflow: Workflow, parent: KernelConfig, fork: ForkContext): void {
  const state = fork.prefix.reduce(
    (folded, event) => sessionProjection.evolve(folded, event),
    sessionProjection.initial(),
  );
  const needed = [state.activeStage?.stageId, state.nextStage?.stageId].filter(
    (id): id is string => id !== undefined,
  );
  const stages = [...workflow.stages.keys()];
  for (const stageId of needed)
    if (!workflow.stages.has(stageId))
      throw new ForkPointError(
        `workflow ${workflow.id} has no stage "${stageId}", where the fork goes on (its stages: ${stages.join(', ')}); fork at a point before that stage started, or give a workflow that has it`,
      );
  for (const stage of workflow.stages.values()) {
    const unknown = stage.allowedTools.filter((tool) => !parent.tools.has(tool));
    if (unknown.length > 0)
      throw new ForkPointError(
        `workflow ${workflow.id}'s stage ${stage.id} offers ${unknown.join(', ')}, which the parent's configuration has no definition of (it has: ${[...parent.tools.keys()].join(', ')})`,
      );
  }
}
