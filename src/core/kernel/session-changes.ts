import type { PayloadOf } from '../events/event-definition.js';
import type { PayloadShape, StoredEvent } from '../events/event-envelope.js';
import type { TouchedFile, toolCallProposed, toolReceipt } from '../tools/tool-events.js';

/** One call's recorded changes to the workspace, with what ran. */
export type RecordedChange = {
  readonly sequence: number;
  readonly callId: string;
  readonly stageId: string | null;
  readonly tool: string;
  /** The command line of an exec (argv as JSON), or null for other tools. */
  readonly command: string | null;
  readonly outcome: string;
  readonly files: readonly TouchedFile[];
};

/**
 * Every recorded change to the workspace of a session, in log order: exec change records and
 * file tools' writes and deletes, from `tool_receipt` events (reads are not changes). With
 * `stageId`, only the calls proposed in that stage. Pure: reads only the events.
 */
export function recordedChanges(
  events: readonly StoredEvent<PayloadShape>[],
  options: { readonly stageId?: string } = {},
): RecordedChange[] {
  const proposals = new Map<string, PayloadOf<typeof toolCallProposed>>();
  const changes: RecordedChange[] = [];
  for (const event of events) {
    if (event.payload.type === 'tool_call_proposed') {
      const proposal = event.payload as PayloadOf<typeof toolCallProposed>;
      proposals.set(proposal.callId, proposal);
      continue;
    }
    if (event.payload.type !== 'tool_receipt') continue;
    const receipt = event.payload as PayloadOf<typeof toolReceipt>;
    const files = receipt.files.filter((file) => file.access !== 'read');
    const stageId = proposals.get(receipt.callId)?.stageId ?? null;
    if (files.length === 0) continue;
    if (options.stageId !== undefined && stageId !== options.stageId) continue;
    changes.push({
      sequence: event.sequence,
      callId: receipt.callId,
      stageId,
      tool: receipt.tool,
      command: receipt.tool === 'exec' ? commandOf(receipt.args) : null,
      outcome: receipt.outcome,
      files,
    });
  }
  return changes;
}

function commandOf(args: Readonly<Record<string, unknown>>): string | null {
  if (typeof args.command === 'string') return args.command;
  return Array.isArray(args.argv) ? JSON.stringify(args.argv) : null;
}
