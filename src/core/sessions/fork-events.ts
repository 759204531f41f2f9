import { z } from 'zod';
import { OperatorModeSchema } from '../approvals/approval-tier.js';
import { defineEvent } from '../events/event-definition.js';

const sha256Hex = z.string().regex(/^[0-9a-f]{64}$/);

/**
 * A session was forked from another at one of its events (`correx fork`). Recorded right after
 * the copied prefix (the parent's events 1..atSequence), it names the parent, the event and the
 * parent's chain hash there, so the prefix can be checked against the parent at any time. The
 * fork's own `session_configured` and `session_created` may differ from the parent's in the
 * model profiles, the workspace and the mode; the parent's values are kept here. An input: the
 * fork's first decision answers it, as a resumed session's does.
 */
export const sessionForked = defineEvent({
  type: 'session_forked',
  description: 'A session was forked from another session at one of its events.',
  origin: 'command',
  fields: () => ({
    parentSessionId: z.string().min(1),
    atSequence: z.number().int().min(1),
    /** The parent's chain hash at `atSequence`. */
    parentHash: sha256Hex,
    /** The digest of the parent's recorded configuration (the fork's may differ). */
    parentConfigurationDigest: sha256Hex,
    parentWorkspace: z.string().min(1),
    workspace: z.string().min(1),
    parentMode: OperatorModeSchema,
    mode: OperatorModeSchema,
    modelProfile: z.string().min(1).optional(),
    /** The model profiles the fork routes among (`--profile`), when it changed them so. */
    profiles: z.array(z.string().min(1)).optional(),
    /** The policy file the fork runs under (`--policy`) and the SHA-256 of the bytes read. */
    policy: z.strictObject({ path: z.string().min(1), sha256: sha256Hex }).optional(),
    /** The workflow the fork goes on with (`--workflow`), by id. */
    workflow: z.string().min(1).optional(),
    /** Files of the parent's workspace at the event that could not be rebuilt (`--allow-missing`). */
    missing: z.array(z.string().min(1)),
    by: z.string().min(1),
  }),
});

export const forkEvents = [sessionForked] as const;
