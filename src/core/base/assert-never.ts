/** Makes a `switch` over a discriminated union exhaustive at compile time. */
export function assertNever(value: never, what = 'value'): never {
  throw new TypeError(`unexpected ${what}: ${JSON.stringify(value)}`);
}
