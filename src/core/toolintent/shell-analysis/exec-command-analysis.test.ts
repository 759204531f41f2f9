import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseWorkspacePolicy } from '../../policies/workspace-policy.js';
import { analyzeExecCall } from './exec-command-analysis.js';

const policy = parseWorkspacePolicy({
  allowedExecutables: [
    'sh',
    'bash',
    'env',
    'xargs',
    'find',
    'git',
    'sed',
    'awk',
    'curl',
    'wget',
    'npm',
    'timeout',
    'nice',
    'python3',
    'node',
    'cp',
    'tee',
    'ls',
  ],
});
const token = fc.constantFrom(
  'sh',
  '-c',
  'env',
  'xargs',
  'find',
  '-exec',
  ';',
  '+',
  '{}',
  'git',
  '-c',
  'config',
  'sed',
  '-i',
  '-e',
  'awk',
  '-v',
  'curl',
  '-o',
  '--output=',
  'wget',
  '-O',
  'npm',
  'install',
  'timeout',
  '5',
  'nice',
  '-n',
  'python3',
  '-m',
  'node',
  '-e',
  'cp',
  '-t',
  'tee',
  'ls',
  'X=1',
  'LD_PRELOAD=x',
  'http://a.example/',
  '/etc/x',
  '~/.bashrc',
  's/a/b/w f',
  '',
  '-',
  '--',
);

describe('analyzeExecCall', () => {
  it('never throws on arbitrary argv built from tricky tokens (property)', () => {
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 12 }), (argv) => {
        const analysis = analyzeExecCall({ argv }, policy);
        return Array.isArray(analysis.findings);
      }),
      { numRuns: 5000 },
    );
  });

  it('never throws on arbitrary shell lines joined from tricky tokens (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(token, fc.constantFrom('|', '&&', ';', '$(', ')', '`', '>', '<')), {
          minLength: 1,
          maxLength: 16,
        }),
        (parts) => {
          const analysis = analyzeExecCall({ command: parts.join(' ') }, policy);
          return Array.isArray(analysis.findings);
        },
      ),
      { numRuns: 5000 },
    );
  });

  it('reports write targets, reads and URLs it finds', () => {
    const analysis = analyzeExecCall(
      { command: 'sort < in.txt | tee out.txt > log.txt && curl -o page.html https://a.example/x' },
      policy,
    );
    expect(analysis.writePaths).toEqual(['log.txt', 'out.txt', 'page.html']);
    expect(analysis.readPaths).toEqual(['in.txt']);
    expect(analysis.urls).toEqual(['https://a.example/x']);
  });

  it('requires exactly a command or an argv', () => {
    expect(analyzeExecCall({}, policy).findings.map((f) => f.code)).toEqual(['no_command']);
  });
});
