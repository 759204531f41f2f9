import { CorrexError } from '../base/correx-error.js';
import type { ModelCapability } from './model-capability.js';
import {
  ModelProfileListSchema,
  type ModelProfile,
  type ModelProfileInput,
} from './model-profile.js';

/** What a stage asks of a model. */
export type RouteRequest = {
  readonly stageId: string;
  readonly requiredCapabilities: readonly ModelCapability[];
  /** The stage's allowed tools; non-empty adds `tool_calling` to the requirements (spec 001). */
  readonly allowedTools: readonly string[];
  /** The pack plus output must fit the context window. */
  readonly minContextTokens?: number;
  /** A stage may pin a profile; it must still satisfy the requirements. */
  readonly preferredProfileId?: string;
};

export type ProfileRejection = {
  readonly profileId: string;
  readonly missingCapabilities: readonly ModelCapability[];
  readonly contextWindowTooSmall: boolean;
  readonly notPreferred: boolean;
};

/** The router's answer: a value, because "no model fits" is a domain outcome, not a crash. */
export type RouteDecision =
  | {
      readonly ok: true;
      readonly profile: ModelProfile;
      readonly requiredCapabilities: readonly ModelCapability[];
    }
  | {
      readonly ok: false;
      readonly stageId: string;
      readonly requiredCapabilities: readonly ModelCapability[];
      readonly rejections: readonly ProfileRejection[];
    };

export type InferenceRouter = {
  readonly profiles: readonly ModelProfile[];
  route(request: RouteRequest): RouteDecision;
};

/** The model profile configuration did not parse. */
export class InvalidModelProfilesError extends CorrexError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('invalid_model_profiles', message, options);
  }
}

/** Parses the `models:` list from configuration; throws `InvalidModelProfilesError`. */
export function parseModelProfiles(input: unknown): ModelProfile[] {
  const parsed = ModelProfileListSchema.safeParse(input);
  if (!parsed.success) {
    const issues = parsed.error.issues
      .map((issue) => `models[${issue.path.join('.')}]: ${issue.message}`)
      .join('; ');
    throw new InvalidModelProfilesError(`invalid model profiles: ${issues}`, {
      cause: parsed.error,
    });
  }
  return parsed.data;
}

/** The capabilities a stage really needs: its declared ones, plus tool calling if it has tools. */
export function effectiveCapabilities(request: RouteRequest): ModelCapability[] {
  const required = new Set(request.requiredCapabilities);
  if (request.allowedTools.length > 0) required.add('tool_calling');
  return [...required].sort();
}

/**
 * Capability-aware routing: among profiles that declare every required capability and whose
 * context window is large enough, the highest `priority` wins; ties keep configuration order.
 * Pure and deterministic: the same profiles and request always give the same decision.
 */
export function createInferenceRouter(options: {
  profiles: readonly ModelProfileInput[];
}): InferenceRouter {
  const profiles = parseModelProfiles(options.profiles);
  return {
    profiles,
    route(request) {
      const required = effectiveCapabilities(request);
      const rejections: ProfileRejection[] = [];
      let best: ModelProfile | undefined;
      for (const profile of profiles) {
        const declared = new Set(profile.capabilities);
        const missing = required.filter((capability) => !declared.has(capability));
        const tooSmall =
          request.minContextTokens !== undefined &&
          profile.contextWindow < request.minContextTokens;
        const notPreferred =
          request.preferredProfileId !== undefined && profile.id !== request.preferredProfileId;
        if (missing.length > 0 || tooSmall || notPreferred) {
          rejections.push({
            profileId: profile.id,
            missingCapabilities: missing,
            contextWindowTooSmall: tooSmall,
            notPreferred,
          });
          continue;
        }
        if (best === undefined || profile.priority > best.priority) best = profile;
      }
      return best === undefined
        ? { ok: false, stageId: request.stageId, requiredCapabilities: required, rejections }
        : { ok: true, profile: best, requiredCapabilities: required };
    },
  };
}
