import { mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';

/**
 * A folder for fixtures that must lie outside /tmp: inside the sandbox /tmp is a private, empty
 * folder, so a workspace, a canary or a write target under it would test the private /tmp, not
 * the view. The checkout's ignored `test-artifacts/`, unless the checkout itself lies under /tmp
 * (a clone made there, as CI may do): then a folder under /var/tmp.
 */
export function outsideTmpFolder(): string {
  const inCheckout = resolve('test-artifacts');
  if (!underTmp(inCheckout)) {
    mkdirSync(inCheckout, { recursive: true });
    return inCheckout;
  }
  return mkdtempSync(join('/var/tmp', 'correx-test-'));
}

function underTmp(path: string): boolean {
  return ['/tmp', tmpdir()].some((tmp) => {
    const rel = relative(tmp, path);
    return rel === '' || (!rel.startsWith('..') && !rel.startsWith('/'));
  });
}
