import { detectSandbox, type DetectSandboxOptions } from '../sandbox/sandbox-availability.js';
import { passed, problem, type DoctorCheck } from './doctor-check.js';

/** Whether commands will run confined: the same probe a session runs at its start. */
export async function checkSandbox(options: DetectSandboxOptions = {}): Promise<DoctorCheck> {
  const availability = await detectSandbox(options);
  if (availability.kind === 'bubblewrap')
    return passed(
      'sandbox',
      `${availability.bwrapPath} (${availability.version}) confines commands${availability.userNamespace ? '' : ' (without a user namespace)'}`,
    );
  return problem(
    'sandbox',
    `commands would run unsandboxed: ${availability.reason}`,
    availability.reason.includes('not installed')
      ? 'install bubblewrap (Debian/Ubuntu: apt-get install bubblewrap)'
      : 'allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1, or kernel.apparmor_restrict_unprivileged_userns=0), or run where bwrap can create namespaces',
  );
}
