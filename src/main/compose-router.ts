import type { Clock } from '../core/base/clock.js';
import type { IdSource } from '../core/base/id-source.js';
import type { CorrexEventStore } from '../core/event-catalog.js';
import { createInferenceRouter } from '../core/inference/inference-router.js';
import { createRouterFacade, type RouterFacade } from '../core/router/router-facade.js';
import { loadHarnessConfig } from '../infrastructure/config/load-harness-config.js';
import { createProviders } from '../infrastructure/providers/provider-factory.js';
import { resolveModels } from './session-setup.js';

export type ComposedRouter = {
  readonly facade: RouterFacade;
  dispose(): Promise<void>;
};

/**
 * The conversational router over sessions in `store`, answering with the user's configured
 * models (the default profile first), or the environment's model when none is configured.
 */
export async function composeRouter(options: {
  readonly store: CorrexEventStore;
  readonly correxHome: string;
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly clock: Clock;
  readonly ids: IdSource;
}): Promise<ComposedRouter> {
  const harness = await loadHarnessConfig({ correxHome: options.correxHome });
  const { profiles, providers } = resolveModels(harness, options.env, options.correxHome);
  const set = await createProviders({
    configs: providers,
    names: profiles.map((profile) => profile.provider),
    env: options.env,
  });
  const facade = createRouterFacade({
    store: options.store,
    router: createInferenceRouter({ profiles }),
    providers: set.providers,
    clock: options.clock,
    ids: options.ids,
    ...(harness.defaults.model === undefined
      ? {}
      : { config: { preferredProfileId: harness.defaults.model } }),
  });
  return { facade, dispose: () => set.dispose() };
}
