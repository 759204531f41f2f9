import type { Clock } from '../base/clock.js';
import type { IdSource } from '../base/id-source.js';
import { createEstimatingTokenizer, type Tokenizer } from '../context/tokenizer.js';
import type { CorrexEventStore } from '../event-catalog.js';
import { InferenceError } from '../inference/inference-failure.js';
import type { InferenceProvider } from '../inference/inference-provider.js';
import type { InferenceRouter } from '../inference/inference-router.js';
import { appendSteeringNote } from './append-steering-note.js';
import { buildRouterContext, DEFAULT_KEEP_LAST, renderRouterContext } from './router-context.js';
import {
  RouterInputError,
  RouterSessionFinishedError,
  RouterUnknownSessionError,
  RouterWiringError,
} from './router-errors.js';
import { loadRouterState } from './router-projection.js';
import type { RouterState, RouterTurn } from './router-state.js';
import { steeringDeliveriesOf, type SteeringDelivery } from './steering-delivery.js';

/** `normal` asks; `steering` also records the input as a steering note for the agent. */
export type RouterInputMode = 'normal' | 'steering';

export type RouterConfig = {
  /** Conversation turns in each pack; the memory keeps twice as many (spec: 6). */
  readonly conversationKeepLast: number;
  /** Tokens the router's pack may take (spec: 4096), within the model's window. */
  readonly tokenBudget: number;
  /** Upper bound on the answer's tokens (and the profile's own maximum). */
  readonly maxAnswerTokens: number;
  /** Wall-clock limit handed to the provider for one answer. */
  readonly timeoutMs: number;
  /** Pin a model profile for the router; otherwise the inference router picks one. */
  readonly preferredProfileId?: string;
};

export const DEFAULT_ROUTER_CONFIG: RouterConfig = {
  conversationKeepLast: DEFAULT_KEEP_LAST,
  tokenBudget: 4096,
  maxAnswerTokens: 1024,
  timeoutMs: 60_000,
};

/** Statuses a session never leaves: a steering note sent then is refused. */
const FINISHED: ReadonlySet<RouterState['workflowStatus']> = new Set([
  'completed',
  'failed',
  'cancelled',
]);

/** The longest input a steering note may carry (the `steering_note_added` schema's limit). */
export const MAX_STEERING_NOTE_CHARACTERS = 20_000;

export type RouterFacadeOptions = {
  readonly store: CorrexEventStore;
  /** Picks the model profile; the router asks for no capabilities and offers no tools. */
  readonly router: InferenceRouter;
  /** Providers by the name profiles use (`profile.provider`). */
  readonly providers: ReadonlyMap<string, InferenceProvider>;
  /** Stamps conversation turns and the steering note's event. */
  readonly clock: Clock;
  /** The steering note's event id. */
  readonly ids: IdSource;
  /** Default: the estimating tokenizer core context packs fall back to. */
  readonly tokenizer?: Tokenizer;
  readonly config?: Partial<RouterConfig>;
};

/** What the router answered, and for steering, the note it recorded. */
export type RouterReply = {
  readonly sessionId: string;
  readonly mode: RouterInputMode;
  readonly content: string;
  /** Event sequences of stage outcomes the answer cites (`#412`) that the router knows of. */
  readonly citedSequences: readonly number[];
  /** The recorded `steering_note_added` (steering mode only); the spec's `steeringEmitted`. */
  readonly steeringNote: { readonly eventId: string; readonly sequence: number } | null;
  /** The last event the answer was based on. */
  readonly asOfSequence: number;
  readonly provider: string;
  readonly model: string;
};

export type RouterFacade = {
  /**
   * Answers one input (spec 003, task 4): folds fresh state from the log, builds the router's
   * pack, asks the routed model, remembers the exchange and, in steering mode, records the
   * input as `steering_note_added`, the only event the router writes. Aborting `signal`
   * aborts the model call (the provider rejects with an `InferenceError` of category
   * `cancelled`); a failed or cancelled call records nothing and remembers nothing.
   */
  onUserInput(
    sessionId: string,
    input: string,
    mode?: RouterInputMode,
    signal?: AbortSignal,
  ): Promise<RouterReply>;
  /** The session's remembered conversation, oldest first (at most `conversationKeepLast * 2`). */
  historyOf(sessionId: string): readonly RouterTurn[];
  /** Drops a session's conversation memory. */
  forget(sessionId: string): void;
  /** Every steering note of the session with its delivery receipt, from the log. */
  deliveriesOf(sessionId: string): Promise<readonly SteeringDelivery[]>;
  /** One note's receipt by its event id; undefined when the session has no such note. */
  deliveryOf(sessionId: string, noteEventId: string): Promise<SteeringDelivery | undefined>;
};

/** The router facade over one store (spec 003, tasks 4 and 5). Never imports the kernel. */
export function createRouterFacade(options: RouterFacadeOptions): RouterFacade {
  const config: RouterConfig = { ...DEFAULT_ROUTER_CONFIG, ...options.config };
  const tokenizer = options.tokenizer ?? createEstimatingTokenizer();
  // In memory, per session, never recorded: one session's conversation never reaches another.
  const histories = new Map<string, readonly RouterTurn[]>();
  const historyOf = (sessionId: string) => histories.get(sessionId) ?? [];

  return {
    historyOf,
    forget: (sessionId) => void histories.delete(sessionId),
    deliveriesOf: (sessionId) => steeringDeliveriesOf(options.store, sessionId),
    async deliveryOf(sessionId, noteEventId) {
      const notes = await steeringDeliveriesOf(options.store, sessionId);
      return notes.find((note) => note.noteEventId === noteEventId);
    },
    async onUserInput(sessionId, input, mode = 'normal', signal) {
      if (input.trim() === '') throw new RouterInputError('the input is empty');
      if (mode === 'steering' && input.length > MAX_STEERING_NOTE_CHARACTERS) {
        throw new RouterInputError(
          `a steering note holds at most ${MAX_STEERING_NOTE_CHARACTERS} characters`,
        );
      }
      const { state, sequence } = await loadRouterState(options.store, sessionId);
      if (mode === 'steering' && sequence === 0) throw new RouterUnknownSessionError(sessionId);
      if (mode === 'steering' && FINISHED.has(state.workflowStatus))
        throw new RouterSessionFinishedError(sessionId, state.workflowStatus);

      const route = options.router.route({
        stageId: 'router',
        requiredCapabilities: [],
        allowedTools: [],
        ...(config.preferredProfileId === undefined
          ? {}
          : { preferredProfileId: config.preferredProfileId }),
      });
      if (!route.ok) {
        throw new RouterWiringError(
          `no model profile can serve the router: ${route.rejections.map((r) => r.profileId).join(', ') || 'no profiles configured'}`,
        );
      }
      const profile = route.profile;
      const provider = options.providers.get(profile.provider);
      if (provider === undefined) {
        throw new RouterWiringError(`no inference provider named ${profile.provider} is wired`);
      }
      const maxAnswerTokens = Math.min(config.maxAnswerTokens, profile.maxOutputTokens);
      const userTurn: RouterTurn = { role: 'user', content: input, timestamp: options.clock.now() };
      const pack = buildRouterContext(
        {
          state,
          history: [...historyOf(sessionId), userTurn],
          keepLast: config.conversationKeepLast,
          steering: mode === 'steering',
        },
        { maxTokens: Math.min(config.tokenBudget, profile.contextWindow - maxAnswerTokens) },
        tokenizer,
      );

      const cancelled = () =>
        new InferenceError({
          category: 'cancelled',
          provider: provider.name,
          message: 'the router call was cancelled',
        });
      if (isAborted(signal)) throw cancelled();
      const result = await provider.infer(
        {
          model: profile.model,
          messages: renderRouterContext(pack),
          tools: [],
          limits: { maxOutputTokens: maxAnswerTokens, timeoutMs: config.timeoutMs },
        },
        signal,
      );
      // A provider that finished despite the abort: the call still counts as cancelled.
      if (isAborted(signal)) throw cancelled();
      const content = result.text.trim();

      const note =
        mode === 'steering'
          ? await appendSteeringNote(options, { sessionId, content: input }, sequence)
          : null;
      remember(histories, sessionId, config.conversationKeepLast * 2, [
        userTurn,
        { role: 'router', content, timestamp: options.clock.now() },
      ]);
      return {
        sessionId,
        mode,
        content,
        citedSequences: citedSequences(content, state),
        steeringNote: note === null ? null : { eventId: note.eventId, sequence: note.sequence },
        asOfSequence: sequence,
        provider: provider.name,
        model: result.modelId,
      };
    },
  };
}

function remember(
  histories: Map<string, readonly RouterTurn[]>,
  sessionId: string,
  cap: number,
  turns: readonly RouterTurn[],
): void {
  histories.set(sessionId, [...(histories.get(sessionId) ?? []), ...turns].slice(-cap));
}

/** `#N` references in the answer that name a stage outcome the router knows; no invented ones. */
export function citedSequences(answer: string, state: RouterState): number[] {
  const known = new Set(state.l2Memory.map((entry) => entry.sequence));
  const cited: number[] = [];
  for (const match of answer.matchAll(/#(\d+)\b/g)) {
    const sequence = Number(match[1]);
    if (known.has(sequence) && !cited.includes(sequence)) cited.push(sequence);
  }
  return cited;
}

/** A function, not an inline check: the signal can change across the `await`. */
function isAborted(signal: AbortSignal | undefined): boolean {
  return signal?.aborted === true;
}
