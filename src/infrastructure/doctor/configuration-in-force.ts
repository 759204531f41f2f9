import type { HarnessConfig } from '../config/load-harness-config.js';
import { environmentModel } from '../config/environment-model.js';
import type { ModelEndpointTarget } from './check-model-endpoint.js';
import { passed, problem, type DoctorCheck } from './doctor-check.js';

/** Which model configuration a run would use, said as a check, and the models it names. */
export type ConfigurationInForce = {
  readonly check: DoctorCheck;
  readonly targets: readonly ModelEndpointTarget[];
};

/**
 * harness.yaml's `models:` win; the environment (`OPENAI_BASE_URL` + `CORREX_MODEL`) is used
 * only when the file configures none. Both set is the trap the issue met (a template written
 * by `correx init` silently replacing a working environment setup), so it is a problem here.
 */
export function configurationInForce(
  harness: HarnessConfig,
  env: Readonly<Record<string, string | undefined>>,
): ConfigurationInForce {
  const file = harness.sources[0] ?? 'harness.yaml';
  const baseUrl = env.OPENAI_BASE_URL;
  if (harness.models.length > 0) {
    const targets = harness.models.flatMap((profile) => {
      const provider = harness.providers[profile.provider];
      return provider === undefined
        ? []
        : [{ profile, providerName: profile.provider, provider, origin: file }];
    });
    const names = harness.models.map((profile) => profile.id).join(', ');
    // A file that points at the very server the environment names (as `correx init` writes it
    // when OPENAI_BASE_URL is set) loses nothing to it.
    const sameServer = targets.some(
      (target) =>
        target.provider.kind === 'openai-compatible' &&
        sameUrl(target.provider.baseUrl, baseUrl ?? ''),
    );
    const check =
      baseUrl !== undefined && baseUrl !== '' && !sameServer
        ? problem(
            'configuration',
            `OPENAI_BASE_URL=${baseUrl} is set but not used: ${file} configures models (${names}), and those win`,
            `to use OPENAI_BASE_URL, remove models: and defaults.model from ${file}; to use the file, unset OPENAI_BASE_URL`,
          )
        : passed(
            'configuration',
            `models from ${file} win: ${names}${sameServer ? ' (OPENAI_BASE_URL names the same server)' : ''}`,
          );
    return { check, targets };
  }
  let fromEnvironment;
  try {
    fromEnvironment = environmentModel(env);
  } catch (error) {
    return {
      check: problem(
        'configuration',
        (error as Error).message,
        'set CORREX_MODEL to the name the server serves',
      ),
      targets: [],
    };
  }
  if (fromEnvironment === undefined)
    return {
      check: problem(
        'configuration',
        `no model configured: ${harness.sources.length === 0 ? 'no harness.yaml' : `${file} has no models`} and OPENAI_BASE_URL is not set`,
        'export OPENAI_BASE_URL=http://127.0.0.1:8080/v1 CORREX_MODEL=<model>, or run correx init and edit its models:',
      ),
      targets: [],
    };
  return {
    check: passed(
      'configuration',
      `the environment's model: OPENAI_BASE_URL=${fromEnvironment.provider.kind === 'openai-compatible' ? fromEnvironment.provider.baseUrl : baseUrl} with CORREX_MODEL=${fromEnvironment.profile.model} (${harness.sources.length === 0 ? 'no harness.yaml' : `${file} configures no models`})`,
    ),
    targets: [
      {
        profile: fromEnvironment.profile,
        providerName: fromEnvironment.providerName,
        provider: fromEnvironment.provider,
        origin: 'OPENAI_BASE_URL',
      },
    ],
  };
}

function sameUrl(a: string, b: string): boolean {
  return a.replace(/\/+$/, '') === b.replace(/\/+$/, '');
}
