/**
 * `correx/testing`: test doubles and suites for people who build on correx: the scripted model,
 * deterministic clocks and ids, the given/when/then kernel specification, and the contract
 * suites every `InferenceProvider` and `SessionLocker` must pass.
 */
export {
  createScriptedProvider,
  loadScriptedTurns,
  ScriptedTurnSchema,
  ScriptedProviderError,
  type ScriptedTurn,
  type ScriptedProvider,
} from '../infrastructure/providers/scripted-provider.js';
export { createFixedClock, createSteppingClock } from '../core/base/clock.js';
export { createCountingIdSource } from '../core/base/id-source.js';
export {
  kernelSpecification,
  sessionStart,
  SpecificationError,
  type KernelSpecification,
  type DecisionExpectation,
} from './kernel-specification.js';
export type { ContractCase } from './contract-case.js';
export {
  inferenceProviderContract,
  type InferenceProviderHarness,
  type ContractAnswer,
  type ProviderUnderTest,
} from './inference-provider-contract.js';
export { sessionLockerContract, type SessionLockerHarness } from './session-locker-contract.js';
