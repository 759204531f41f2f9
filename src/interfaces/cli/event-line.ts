import { visibleText } from '../../core/base/visible-text.js';
import type { CorrexEvent } from '../../core/event-catalog.js';

/**
 * One line of live progress for the events a person watching a session cares about (stages,
 * tool calls with their verdict and tier, approvals, failures, transitions); `null` for the rest.
 * Plain text: it reads the same in a terminal and in a log file.
 */
export function formatEventLine(event: CorrexEvent): string | null {
  const line = describeEvent(event);
  // Every field here comes from the log (model text, paths, reasons): shown, never obeyed.
  return line === null ? null : visibleText(line);
}

function describeEvent(event: CorrexEvent): string | null {
  const payload = event.payload;
  switch (payload.type) {
    case 'stage_started':
      return `▶ stage ${payload.stageId} (attempt ${payload.attempt})`;
    case 'stage_start_reconciled':
      return `↺ stage ${payload.stageId} (${payload.reason}) starts from the workspace as left: ${payload.changedSince.length} file(s) changed since its checkpoint #${payload.checkpointSequence}`;
    case 'tool_call_proposed':
      return `  call ${payload.tool} ${clip(payload.argsRaw, 70)}`;
    case 'tool_call_rejected':
      return `  ✗ rejected ${payload.tool} (${payload.reason}): ${clip(payload.message, 100)}`;
    case 'tool_call_assessed':
      return `    assessed ${payload.verdict} ${payload.tier} risk ${payload.risk}`;
    case 'approval_granted':
      return `    approved by ${payload.by.kind}:${payload.by.id}`;
    case 'approval_denied':
      return `    ✗ denied by ${payload.by.kind}:${payload.by.id}: ${clip(payload.reason, 100)}`;
    case 'approval_requested':
      return `    waiting for approval (${payload.tier}): ${clip(payload.reason, 100)}`;
    case 'approval_bypassed':
      return `    approval bypassed (${payload.tier})`;
    case 'tool_receipt':
      return `    ${payload.outcome === 'succeeded' ? '✓' : '✗'} ${payload.tool} ${payload.outcome}${
        payload.exitCode === null ? '' : ` (exit ${payload.exitCode})`
      }`;
    case 'inference_failed':
      return `  ✗ model call failed (${payload.category}): ${clip(payload.message, 100)}`;
    case 'journal_compacted':
      return `  journal: ${payload.entries} older entries of stage ${payload.stageId} folded into a summary${payload.requestId === undefined ? '' : ' the model wrote'}`;
    case 'retry_delay_started':
      return `  … waiting ${(payload.delayMs / 1000).toFixed(1)}s before the next model call (${clip(payload.provider, 40)})`;
    case 'validation_failed':
      return `  ✗ artifact invalid (${payload.validator}): ${clipProse(payload.message, 160)}`;
    case 'stage_completed':
      return `✓ stage ${payload.stageId} completed${payload.verdict === undefined ? '' : `: ${payload.verdict}`}`;
    case 'stage_failed':
      return `✗ stage ${payload.stageId} failed (${payload.category}): ${clip(payload.message, 100)}`;
    case 'transition_taken':
      return `→ ${payload.from} → ${payload.to ?? payload.end ?? '?'}`;
    case 'project_checks_detected':
      return `  checks found: ${payload.checks.map((check) => check.name).join(', ') || 'none'}`;
    case 'dod_check_ran':
      return `  ${payload.outcome === 'completed' && payload.exitCode === 0 ? '✓' : '✗'} check ${payload.name} (${clip(payload.command, 40)}) ${
        payload.outcome === 'completed' ? `exit ${payload.exitCode ?? 'none'}` : payload.outcome
      }`;
    case 'language_diagnostics_recorded': {
      const seconds = `${(payload.durationMs / 1000).toFixed(1)} s`;
      if (payload.method === 'unavailable')
        return `  ! language server unavailable (${seconds}): ${clip(payload.error ?? 'no reason given', 100)}`;
      const errors = payload.files.reduce(
        (sum, file) => sum + file.diagnostics.filter((d) => d.severity === 'error').length,
        0,
      );
      const files = `${payload.files.length} changed file${payload.files.length === 1 ? '' : 's'}`;
      return errors === 0
        ? `  ✓ language server: no errors in ${files} (${seconds})`
        : `  ✗ language server: ${errors} error${errors === 1 ? '' : 's'} in ${files} (${seconds})`;
    }
    case 'workflow_completed':
      return payload.summary === undefined
        ? '✓ workflow completed'
        : `✓ workflow completed; ${clip(payload.summary, 160)}`;
    case 'workflow_failed':
      return `✗ workflow failed (${payload.category}): ${clip(payload.message, 100)}`;
    case 'workflow_cancelled':
      return `✗ workflow cancelled by ${payload.by}`;
    case 'session_retried':
      return `↻ retried by ${payload.by} from stage ${payload.stageId} (attempt ${payload.attempt}): ${clip(payload.reason, 100)}`;
    case 'turn_requested':
      return `» turn ${payload.turn} asked by ${payload.requestedBy} (workflow ${payload.workflowId}${payload.mode === undefined ? '' : `, mode ${payload.mode}`}): ${clip(payload.text, 120)}`;
    case 'turn_workspace_checked':
      return payload.changed.length === 0
        ? `  workspace as the last turn left it (${payload.compared} file(s) compared)`
        : `  ! ${payload.changed.length} file(s) changed outside correx since the last turn, kept as they are: ${clip(
            payload.changed.map((change) => `${change.path} (${change.kind})`).join(', '),
            200,
          )}`;
    case 'turn_reply_recorded':
      return `« reply (turn ${payload.turn}): ${clipProse(payload.message, 200)}`;
    case 'session_forked':
      return `⑂ forked by ${payload.by} from ${payload.parentSessionId} at #${payload.atSequence}${payload.modelProfile === undefined ? '' : ` onto ${payload.modelProfile}`}${payload.profiles === undefined ? '' : ` routing among ${payload.profiles.join(', ')}`}${payload.workflow === undefined ? '' : ` with workflow ${payload.workflow}`}${payload.policy === undefined ? '' : ` under policy ${payload.policy.path}`}, workspace ${payload.workspace}${payload.missing.length === 0 ? '' : ` (not rebuilt: ${payload.missing.join(', ')})`}`;
    default:
      return null;
  }
}

/**
 * A message written as prose over several lines (a validator's): its lines joined with ` · `
 * (so none can forge a line of its own), cut at a word boundary, never inside a word.
 */
function clipProse(text: string, length: number): string {
  const joined = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join(' · ');
  const line = visibleText(joined.replace(/\s{2,}/g, ' '));
  if (line.length <= length) return line;
  const cut = line.lastIndexOf(' ', length - 1);
  return `${line.slice(0, cut > length / 2 ? cut : length - 1).trimEnd()} …`;
}

function clip(text: string, length: number): string {
  // Runs of spaces fold; a newline or tab is shown escaped (so it cannot forge a line).
  const line = visibleText(text.replace(/ {2,}/g, ' ').trim());
  return line.length <= length ? line : `${line.slice(0, length - 1)}…`;
}
