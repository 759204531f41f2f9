// With the `u` flag a surrogate class matches only a surrogate that is not half of a pair.
const LONE_SURROGATES = /\p{Surrogate}/gu;

/**
 * A copy of `value` whose strings (and keys) are Unicode text: each lone surrogate becomes
 * U+FFFD. For what the world hands back (a tool's output parsed from JSON may carry `\ud800`),
 * which the canonical encoder refuses; walked without recursion.
 */
export function wellFormedDeep<T>(value: T): T {
  const fix = (text: string) => text.replace(LONE_SURROGATES, '\uFFFD');
  const copy = (item: unknown): unknown => {
    if (typeof item === 'string') return fix(item);
    if (Array.isArray(item)) return [...item];
    if (
      typeof item === 'object' &&
      item !== null &&
      Object.getPrototypeOf(item) === Object.prototype
    )
      return { ...item };
    return item;
  };
  const root = { value: copy(value) };
  const pending: object[] = [root];
  while (pending.length > 0) {
    const container = pending.pop() as Record<string, unknown>;
    for (const key of Object.keys(container)) {
      const member = container[key];
      const fixedKey = fix(key);
      const next = copy(member);
      if (fixedKey !== key) delete container[key];
      container[fixedKey] = next;
      if (typeof next === 'object' && next !== null) pending.push(next);
    }
  }
  return root.value as T;
}
