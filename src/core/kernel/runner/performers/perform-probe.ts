import type { EffectPerformer } from './effect-performer.js';

/** Observes each path the probed calls name and records what it found, call by call. */
export const performProbe: EffectPerformer<'probe'> = async (options, _state, effect) => {
  const { ports } = options;
  const results = [];
  for (const probed of [effect, ...(effect.alongside ?? [])])
    for (const path of probed.paths)
      results.push({
        type: 'world_observed' as const,
        callId: probed.callId,
        observation: await ports.probe.observe(path),
      });
  return results;
};
