import { describe, expect, it } from 'vitest';
import type { AssessedTarget } from '../core/toolintent/toolintent-events.js';
import { alwaysAllowScope } from './always-allow-scope.js';
import type { PendingApprovalDetails } from './pending-approval-details.js';

function details(tool: string, args: object, targets: AssessedTarget[]): PendingApprovalDetails {
  return {
    callId: 'c1',
    proposal: { stageId: 'implement', tool, argsRaw: JSON.stringify(args) },
    assessment: { verdict: 'ALLOW', tier: 'T2', risk: 'medium', targets, findings: [] },
    request: null,
    interrupted: null,
  };
}
const path = (real: string, write = true): AssessedTarget => ({
  role: 'PATH',
  param: 'path',
  raw: real,
  resolved: real,
  realPath: real,
  write,
});

describe('alwaysAllowScope: the exact grant "always allow" records', () => {
  it('is the exact command line for exec, argv as JSON as grants match it', () => {
    expect(alwaysAllowScope(details('exec', { command: 'npm test' }, []), '/w')).toEqual({
      kind: 'command',
      command: 'npm test',
    });
    expect(alwaysAllowScope(details('exec', { argv: ['node', '--test'] }, []), '/w')).toEqual({
      kind: 'command',
      command: '["node","--test"]',
    });
  });

  it('is the one workspace-relative path for a file tool, and the host for a network call', () => {
    expect(
      alwaysAllowScope(details('write_file', { path: 'src/a.ts' }, [path('/w/src/a.ts')]), '/w'),
    ).toEqual({ kind: 'path', tool: 'write_file', glob: 'src/a.ts' });
    const url: AssessedTarget = { ...path('x'), role: 'URL', param: 'url', resolved: 'api.test' };
    expect(alwaysAllowScope(details('http_fetch', {}, [url]), '/w')).toEqual({
      kind: 'host',
      host: 'api.test',
    });
  });

  it('is offered for nothing wider: several paths, or a path a glob would read as a pattern', () => {
    expect(
      alwaysAllowScope(details('move_file', {}, [path('/w/a', false), path('/w/b')]), '/w'),
    ).toBeNull();
    expect(alwaysAllowScope(details('write_file', {}, [path('/w/src/*.ts')]), '/w')).toBeNull();
  });
});
