import type { EffectPerformer } from './effect-performer.js';

/** Observes each path a call names and records what it found. */
export const performProbe: EffectPerformer<'probe'> = async (options, _state, effect) => {
  const { ports } = options;
  const observations = [];
  for (const path of effect.paths) observations.push(await ports.probe.observe(path));
  return observations.map((observation) => ({
    type: 'world_observed',
    callId: effect.callId,
    observation,
  }));
};
