/**
 * SIGKILLs every process in the group led by `pid` (a child spawned with `detached: true`).
 * SIGKILL, not SIGTERM: a process that ignores SIGTERM must not outlive its call. An empty or
 * vanished group is not an error.
 */
export function killProcessGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // The group is already gone.
  }
}
