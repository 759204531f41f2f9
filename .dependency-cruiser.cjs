/**
 * The dependency rule of record. Layer rules are generated from one ordered list: a core
 * module may import only modules that come before it. `event-catalog` (src/core/event-catalog.ts)
 * assembles every module's events, so only the modules after it may import it.
 */
const CORE_LAYERS = [
  'base',
  'events',
  'policies',
  'approvals',
  'sessions',
  'artifacts',
  'transitions',
  'validation',
  'tools',
  'toolintent',
  'inference',
  'context',
  'event-catalog',
  'kernel',
  'router',
];

const NODE_IO =
  '^(node:)?(fs|fs/promises|net|http|https|http2|child_process|worker_threads|dgram|tls|cluster|os|readline|dns|process|vm|v8|inspector|perf_hooks|repl|tty)$';

const layerPath = (layer) =>
  layer === 'event-catalog' ? '^src/core/event-catalog\\.ts$' : `^src/core/${layer}/`;

const layerRules = CORE_LAYERS.slice(0, -1).map((layer, index) => {
  const higher = CORE_LAYERS.slice(index + 1);
  return {
    name: `core-layer-${layer}`,
    comment: `core module ${layer} may not import modules above it: ${higher.join(', ')}`,
    severity: 'error',
    from: { path: layerPath(layer), pathNot: '\\.test\\.ts$' },
    to: { path: higher.map(layerPath) },
  };
});

module.exports = {
  forbidden: [
    {
      name: 'core-not-to-outer',
      comment:
        'src/core is pure: it may not import infrastructure, interfaces or the composition root',
      severity: 'error',
      from: { path: '^src/core/' },
      to: { path: '^src/(infrastructure|interfaces|main)/' },
    },
    {
      name: 'core-no-node-io',
      comment:
        'src/core does no I/O: go through a port (an interface implemented in infrastructure)',
      severity: 'error',
      from: { path: '^src/core/', pathNot: '\\.test\\.ts$' },
      to: { dependencyTypes: ['core'], path: NODE_IO },
    },
    {
      name: 'core-npm-allowlist',
      comment: 'src/core may import only zod from npm',
      severity: 'error',
      from: { path: '^src/core/', pathNot: '\\.test\\.ts$' },
      to: {
        dependencyTypes: [
          'npm',
          'npm-dev',
          'npm-optional',
          'npm-peer',
          'npm-no-pkg',
          'npm-unknown',
        ],
        // A worktree may link node_modules from another checkout: match the folder anywhere.
        pathNot: '(^|/)node_modules/zod/',
      },
    },
    {
      name: 'router-not-to-kernel',
      comment: 'the router is a facade over session state; it must not reach into the kernel',
      severity: 'error',
      from: { path: '^src/core/router/' },
      to: { path: '^src/core/kernel/' },
    },
    {
      name: 'infrastructure-not-to-interfaces',
      comment:
        'imports point inward: infrastructure may not import interfaces or the composition root',
      severity: 'error',
      from: { path: '^src/infrastructure/' },
      to: { path: '^src/(interfaces|main)/' },
    },
    {
      name: 'interfaces-not-to-main',
      comment: 'interfaces receive their dependencies; only bin/ and src/main wire them',
      severity: 'error',
      from: { path: '^src/interfaces/' },
      to: { path: '^src/main/' },
    },
    {
      name: 'kernel-only-through-its-face',
      comment:
        'outside src/core/kernel the kernel is imported only through src/core/kernel/index.ts, its face (tests may reach inside)',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/core/kernel/', '\\.test\\.ts$'] },
      to: { path: '^src/core/kernel/', pathNot: '^src/core/kernel/index\\.ts$' },
    },
    {
      name: 'shell-analysis-only-through-its-face',
      comment:
        'outside src/core/toolintent/shell-analysis the shell analyzer is imported only through its index.ts (tests may reach inside)',
      severity: 'error',
      from: { path: '^src/', pathNot: ['^src/core/toolintent/shell-analysis/', '\\.test\\.ts$'] },
      to: {
        path: '^src/core/toolintent/shell-analysis/',
        pathNot: '^src/core/toolintent/shell-analysis/index\\.ts$',
      },
    },
    ...layerRules,
    {
      name: 'no-circular',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-not-to-test',
      comment: 'product code may not import tests or test support',
      severity: 'error',
      from: { path: '^src/', pathNot: '\\.test\\.ts$' },
      to: { path: '(^test/|\\.test\\.ts$|\\.contract\\.ts$)' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
    },
  },
};
