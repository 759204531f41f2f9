/**
 * One case of a contract suite: a name and a check that throws when the implementation breaks the
 * contract. Suites are lists of cases, so any test runner can run them
 * (`for (const c of suite) it(c.name, c.run)` in vitest, `test(c.name, c.run)` in node:test).
 */
export type ContractCase = {
  readonly name: string;
  readonly run: () => Promise<void>;
};
