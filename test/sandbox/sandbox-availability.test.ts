import { describe, expect, it } from 'vitest';
import {
  describeSandbox,
  detectSandbox,
} from '../../src/infrastructure/sandbox/sandbox-availability.js';
import { availability, describeSandboxed } from './sandbox-support.js';

describe('detectSandbox', () => {
  it('reports none, with the reason, off Linux and where bwrap is not installed', async () => {
    expect(await detectSandbox({ platform: 'darwin' })).toEqual({
      kind: 'none',
      reason: 'bubblewrap needs Linux namespaces; this is darwin',
    });
    const missing = await detectSandbox({ candidates: ['/nonexistent/bwrap'] });
    expect(missing).toMatchObject({
      kind: 'none',
      reason: expect.stringContaining('apt-get install bubblewrap') as unknown,
    });
  });

  it('says so plainly when commands run unsandboxed', () => {
    expect(describeSandbox({ kind: 'none', reason: 'bwrap is missing' })).toBe(
      'commands run UNSANDBOXED: bwrap is missing. Every exec is raised to approval tier T3.',
    );
  });
});

describeSandboxed('detectSandbox on this machine', () => {
  it('finds a working bubblewrap', () => {
    expect(availability).toMatchObject({
      kind: 'bubblewrap',
      version: expect.stringMatching(/^bubblewrap /) as unknown,
    });
  });
});
