import { loadHarnessConfig } from '../config/load-harness-config.js';
import type { DetectSandboxOptions } from '../sandbox/sandbox-availability.js';
import { checkModelEndpoint, type ModelEndpointOptions } from './check-model-endpoint.js';
import { checkSandbox } from './check-sandbox.js';
import { checkStore } from './check-store.js';
import { configurationInForce } from './configuration-in-force.js';
import { passed, problem, type DoctorCheck } from './doctor-check.js';
import { describeAuthority } from '../config/workspace-trust.js';

export type DoctorOptions = ModelEndpointOptions & {
  readonly correxHome: string;
  /** The store a run would use. */
  readonly store: string;
  /** The workspace whose harness.yaml narrows the user's. */
  readonly workspace?: string;
  readonly sandbox?: DetectSandboxOptions;
};

/** Every check `correx doctor` makes, in the order a person fixes them. */
export async function runDoctor(options: DoctorOptions): Promise<DoctorCheck[]> {
  const checks: DoctorCheck[] = [
    await checkSandbox(options.sandbox),
    await checkStore(options.store),
  ];
  let harness;
  try {
    harness = await loadHarnessConfig({
      correxHome: options.correxHome,
      ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
    });
  } catch (error) {
    checks.push(
      problem(
        'configuration',
        (error as Error).message,
        'correct harness.yaml where the message says',
      ),
    );
    return checks;
  }
  const inForce = configurationInForce(harness, options.env);
  checks.push(inForce.check);
  // The workspace's own hooks, servers and widenings: a run fails closed until they are trusted.
  if (harness.untrustedAuthority !== undefined)
    checks.push(
      problem(
        'workspace trust',
        `${harness.untrustedAuthority.workspace} ships ${describeAuthority(harness.untrustedAuthority)}, not trusted in this form: a run refuses to start`,
        `review it, then correx trust ${harness.untrustedAuthority.workspace}`,
      ),
    );
  else if (harness.trustedAuthority !== undefined)
    checks.push(
      passed(
        'workspace trust',
        `${describeAuthority(harness.trustedAuthority)}: trusted (${harness.trustedAuthority.digest.slice(0, 12)})`,
      ),
    );
  for (const target of inForce.targets) checks.push(...(await checkModelEndpoint(target, options)));
  return checks;
}
