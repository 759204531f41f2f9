import { expect } from 'vitest';

/** Awaits a promise that must reject with an instance of `type`, and returns that error for more checks. */
export async function expectRejection<E extends Error>(
  promise: Promise<unknown>,
  type: abstract new (...args: never[]) => E,
): Promise<E> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(type);
  return error as E;
}
