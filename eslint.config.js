import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const NODE_BUILTINS = [
  'fs',
  'fs/promises',
  'net',
  'http',
  'https',
  'http2',
  'child_process',
  'worker_threads',
  'dgram',
  'tls',
  'cluster',
  'os',
  'readline',
  'dns',
  'process',
  'vm',
  'crypto',
  'path',
  'url',
  'events',
  'stream',
  'timers',
];

/** Rules that keep src/core deterministic. test/architecture.test.ts proves each still fires. */
export const coreDeterminismRules = {
  'no-restricted-properties': [
    'error',
    {
      object: 'Date',
      property: 'now',
      message: 'core reads no clock: inject a Clock or read time from a recorded event',
    },
    {
      object: 'Math',
      property: 'random',
      message: 'core uses no randomness: inject an IdSource or record the value as an event',
    },
    {
      object: 'crypto',
      property: 'randomUUID',
      message: 'core creates no random ids: inject an IdSource',
    },
    {
      object: 'crypto',
      property: 'getRandomValues',
      message: 'core uses no randomness: inject an IdSource',
    },
    {
      object: 'process',
      property: 'env',
      message: 'core reads no environment: pass configuration in',
    },
    { object: 'performance', property: 'now', message: 'core reads no clock: inject a Clock' },
  ],
  'no-restricted-syntax': [
    'error',
    {
      selector: "NewExpression[callee.name='Date'][arguments.length=0]",
      message:
        'core reads no clock: `new Date()` without an argument is the current time; inject a Clock',
    },
    {
      selector: "CallExpression[callee.name='Date'][arguments.length=0]",
      message: 'core reads no clock: `Date()` is the current time; inject a Clock',
    },
  ],
  'no-restricted-globals': [
    'error',
    { name: 'process', message: 'core does not touch the process: pass what you need in' },
    { name: 'setTimeout', message: 'core has no timers: the effect runner owns time' },
    { name: 'setInterval', message: 'core has no timers: the effect runner owns time' },
    { name: 'setImmediate', message: 'core has no timers: the effect runner owns time' },
    { name: 'fetch', message: 'core does no I/O: go through a port' },
  ],
  '@typescript-eslint/no-restricted-imports': [
    'error',
    {
      paths: NODE_BUILTINS.map((name) => ({
        name,
        message: 'core does no I/O: go through a port implemented in infrastructure',
      })),
      patterns: [
        {
          group: ['node:*'],
          message: 'core does no I/O: go through a port implemented in infrastructure',
        },
      ],
    },
  ],
};

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      '.test-cli/**',
      'node_modules/**',
      'coverage/**',
      'test/architecture-fixtures/**',
      'web/dist/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    // The web page (web/): its own tsconfigs (DOM, JSX for Preact); the same type-aware rules.
    files: ['web/**/*.ts', 'web/**/*.tsx'],
    languageOptions: {
      parserOptions: {
        projectService: false,
        project: ['./web/tsconfig.json', './web/tsconfig.node.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true },
      ],
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    ignores: ['src/core/**/*.test.ts'],
    rules: coreDeterminismRules,
  },
  {
    files: ['**/*.js', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      globals: {
        module: 'writable',
        require: 'readonly',
        process: 'readonly',
        console: 'readonly',
      },
    },
  },
);
