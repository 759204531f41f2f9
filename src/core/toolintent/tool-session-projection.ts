import {
  layeredDelete,
  layeredGet,
  layeredHas,
  layeredRecord,
  layeredSet,
  type LayeredRecord,
} from '../base/layered-record.js';
import { canonicallyEqual } from '../events/canonical-equal.js';
import type { PayloadOf } from '../events/event-definition.js';
import type { PayloadShape, StoredEvent } from '../events/event-envelope.js';
import type { Projection } from '../events/projection.js';
import type { toolReceipt, workspaceRestored } from '../tools/tool-events.js';
import type { ToolPathRoots } from '../tools/tool-path.js';
import type { ToolSessionView } from './tool-call-rule.js';
import type {
  egressAllowlistChanged,
  WorldObservation,
  worldObserved,
} from './toolintent-events.js';

/**
 * What plane 2 remembers about a session, rebuilt from its events alone. The path maps grow
 * with every distinct path a session sees, so they are layered: a change copies a part of them.
 */
export type ToolSessionState = {
  readonly observations: LayeredRecord<WorldObservation>;
  readonly reads: LayeredRecord<string>;
  readonly egressAllowlist: readonly string[];
  /** UTF-8 bytes of content the session's successful file writes carried (absent: none yet). */
  readonly bytesWritten?: number;
};

/**
 * Folds `world_observed` (latest observation per path), `tool_receipt` (the content hash the
 * model last saw per real path: files it read, and files it wrote itself) and
 * `egress_allowlist_changed` (the EgressAllowlist). Other events pass through untouched.
 */
export const toolSessionProjection: Projection<ToolSessionState, PayloadShape> = {
  name: 'tool-session',
  // 2: the path maps are layered records.
  version: 2,
  initial: () => ({ observations: layeredRecord(), reads: layeredRecord(), egressAllowlist: [] }),
  evolve(state, event: StoredEvent<PayloadShape>) {
    const payload = event.payload;
    if (payload.type === 'world_observed') {
      const { observation } = payload as PayloadOf<typeof worldObserved>;
      // A re-probe of an unchanged path (the common case) leaves the map as it is.
      const known = layeredGet(state.observations, observation.path);
      if (known !== undefined && canonicallyEqual(known, observation)) return state;
      return {
        ...state,
        observations: layeredSet(state.observations, observation.path, observation),
      };
    }
    if (payload.type === 'tool_receipt') {
      const receipt = payload as PayloadOf<typeof toolReceipt>;
      // Most receipts (exec, search) touch no file: the state stays as it is.
      let reads = state.reads;
      for (const file of receipt.files) {
        if (file.access === 'read' && file.before !== null)
          reads = layeredSet(reads, file.path, file.before);
        else if (file.access === 'write' && file.after !== null && receipt.outcome === 'succeeded')
          reads = layeredSet(reads, file.path, file.after);
        else if (file.access === 'delete') reads = layeredDelete(reads, file.path);
      }
      const written =
        receipt.outcome === 'succeeded' ? writtenBytes(receipt.args as Record<string, unknown>) : 0;
      if (reads === state.reads && written === 0) return state;
      return written === 0
        ? { ...state, reads }
        : { ...state, reads, bytesWritten: (state.bytesWritten ?? 0) + written };
    }
    if (payload.type === 'workspace_restored') {
      // Restored files hold bytes the model has not seen (again): it reads them before writing.
      const restored = payload as PayloadOf<typeof workspaceRestored>;
      if (!restored.files.some((file) => layeredHas(state.reads, file.path))) return state;
      let reads = state.reads;
      for (const file of restored.files) reads = layeredDelete(reads, file.path);
      return { ...state, reads };
    }
    if (payload.type === 'egress_allowlist_changed') {
      const change = payload as PayloadOf<typeof egressAllowlistChanged>;
      const hosts = new Set(state.egressAllowlist);
      for (const host of change.added) hosts.add(host);
      for (const host of change.removed) hosts.delete(host);
      return { ...state, egressAllowlist: [...hosts].sort() };
    }
    return state;
  },
};

/** The view the rules read: projected state plus the session roots and the stage's manifest. */
export function toolSessionView(
  state: ToolSessionState,
  roots: ToolPathRoots,
  writeManifest: readonly string[] | null = null,
): ToolSessionView {
  return {
    roots,
    observations: state.observations,
    reads: state.reads,
    egressAllowlist: state.egressAllowlist,
    writeManifest,
    bytesWritten: state.bytesWritten ?? 0,
  };
}

/** The bytes of content a file-writing call carries: `content` (write_file) or `replace` (edit_file). */
export function writtenBytes(args: Readonly<Record<string, unknown>>): number {
  const text =
    typeof args.content === 'string'
      ? args.content
      : typeof args.replace === 'string'
        ? args.replace
        : '';
  return utf8Length(text);
}

function utf8Length(text: string): number {
  let bytes = 0;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && index + 1 < text.length) {
      bytes += 4;
      index++;
    } else bytes += 3;
  }
  return bytes;
}
