// Types for what test/architecture.test.ts imports from the ESLint config (plain JS).
import type { Linter } from 'eslint';

export declare const coreDeterminismRules: Linter.RulesRecord;
declare const config: Linter.Config[];
export default config;
