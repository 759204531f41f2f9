import { describe, expect, it } from 'vitest';
import type { CorrexEvent } from '../../event-catalog.js';
import type { KernelConfig } from '../config/kernel-config.js';
import { STAGE_CHECKPOINTS } from '../config/kernel-flags.js';
import {
  eventsBeforeStage,
  evolveFeatures,
  initialFeatures,
  KERNEL_FEATURES,
  type FeatureCore,
} from './kernel-features.js';

function event(sequence: number, payload: CorrexEvent['payload']): CorrexEvent {
  return {
    eventId: `e${sequence}`,
    sessionId: 's',
    sequence,
    timestamp: '2026-01-01T00:00:00.000Z',
    version: 1,
    causationId: null,
    correlationId: null,
    payload,
  } as CorrexEvent;
}

function core(flags: readonly string[]): FeatureCore {
  const config = {
    behaviour: { kernelVersion: 2, flags: new Set(flags) },
  } as unknown as KernelConfig;
  return {
    config,
    mode: 'prompt',
    lastTimestamp: null,
    lastSequence: 7,
    workspace: null,
    features: initialFeatures(),
  };
}

describe('kernel features', () => {
  it('are registered in their recorded order, append-only', () => {
    // The order is recorded behaviour: append new features, never reorder.
    expect(KERNEL_FEATURES.map((feature) => feature.name)).toEqual([
      'budget',
      'checkpoints',
      'critique',
      'review',
      'checks',
      'brief',
      'claims',
      'retry',
      'diagnostics',
      'verdict',
      'journal',
      'turns',
      'approvalTimeout',
      'transientWaits',
      'canonicalOutput',
      'forkPaths',
      'manifests',
    ]);
  });

  it('own disjoint events and hold one slice each', () => {
    const events = KERNEL_FEATURES.flatMap((feature) => feature.events);
    expect(new Set(events).size).toBe(events.length);
    expect(Object.keys(initialFeatures())).toEqual(KERNEL_FEATURES.map((f) => f.name));
  });

  it('fold an event into the slice it changes, and leave the map alone otherwise', () => {
    const features = initialFeatures();
    const steered = event(2, {
      type: 'steering_note_added',
      content: 'x',
    } as CorrexEvent['payload']);
    expect(evolveFeatures(features, steered, null)).toBe(features);
    const exhausted = evolveFeatures(
      features,
      event(3, { type: 'budget_exhausted', budget: 'tokens', limit: 10, used: 11 }),
      null,
    );
    expect(exhausted.budget.stop).toEqual({ budget: 'tokens', limit: 10 });
    expect(exhausted.checkpoints).toBe(features.checkpoints);
  });

  it('run a hook only for a session that recorded its flag', () => {
    const next = { stageId: 'plan', attempt: 1 };
    expect(eventsBeforeStage(core([]), next)).toEqual([]);
    expect(eventsBeforeStage(core([STAGE_CHECKPOINTS.name]), next)).toEqual([
      {
        type: 'stage_checkpoint_recorded',
        stageId: 'plan',
        attempt: 1,
        throughSequence: 7,
        files: [],
      },
    ]);
  });
});
