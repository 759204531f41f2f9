import type { z } from 'zod';
import { approvalEvents } from './approvals/approval-events.js';
import { artifactEvents } from './artifacts/artifact-events.js';
import { briefEvents } from './context/brief-events.js';
import { critiqueEvents } from './context/critique-events.js';
import { journalEvents } from './context/journal-events.js';
import { steeringEvents } from './context/steering-events.js';
import { createEventCatalog } from './events/event-catalog.js';
import { inferenceEvents } from './inference/inference-events.js';
import type { EventStore } from './events/event-store.js';
import type { StoredEvent } from './events/event-envelope.js';
import { kernelFlowEvents, sessionEvents } from './sessions/session-events.js';
import { budgetEvents } from './sessions/budget-events.js';
import { forkEvents } from './sessions/fork-events.js';
import { retryEvents } from './sessions/retry-events.js';
import { turnEvents } from './sessions/turn-events.js';
import { subagentEvents } from './sessions/subagent-events.js';
import { transitionEvents } from './sessions/transition-events.js';
import { definitionOfDoneEvents } from './validation/definition-of-done-events.js';
import { validationEvents } from './validation/validation-events.js';
import { toolCallOutcomeEvents } from './tools/tool-call-outcome-events.js';
import { toolEvents } from './tools/tool-events.js';
import { checkpointEvents } from './tools/checkpoint-events.js';
import { toolIntentEvents } from './toolintent/toolintent-events.js';
import { hookEvents } from './toolintent/hook-events.js';

/**
 * Every event payload correx writes, listed once. Each module defines its own payloads; this
 * file only assembles them and hands the catalog to the codec and the stores.
 */
export const eventDefinitions = [
  ...sessionEvents,
  ...transitionEvents,
  ...artifactEvents,
  ...validationEvents,
  ...approvalEvents,
  ...toolEvents,
  ...toolIntentEvents,
  ...steeringEvents,
  ...inferenceEvents,
  ...toolCallOutcomeEvents,
  ...definitionOfDoneEvents,
  ...journalEvents,
  ...kernelFlowEvents,
  ...subagentEvents,
  ...hookEvents,
  ...budgetEvents,
  ...retryEvents,
  ...briefEvents,
  ...critiqueEvents,
  ...checkpointEvents,
  ...forkEvents,
  ...turnEvents,
] as const;

export const correxEventCatalog = createEventCatalog(eventDefinitions);

/** The union of every payload correx writes, discriminated on `type`. */
export type EventPayload = z.infer<(typeof eventDefinitions)[number]['schema']>;

export type CorrexEvent = StoredEvent<EventPayload>;
export type CorrexEventStore = EventStore<EventPayload>;
