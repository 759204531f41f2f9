/**
 * Names the audit trail gives to deciders that are not people (the policy, operator modes,
 * grants, correx itself and its shutdown): a person's decision may never be recorded under one,
 * or it would read as an automatic one.
 */
const RESERVED = new Set([
  'auto',
  'policy',
  'grant',
  'system',
  'correx',
  'correx serve',
  'correx-shutdown',
  'prompt',
  'yolo',
]);

/** Why `name` cannot stand for a person in the audit trail, or null when it can. */
export function reservedNameReason(name: string): string | null {
  const folded = name.trim().toLowerCase();
  if (folded === '') return 'a decider needs a name';
  if (RESERVED.has(folded)) return `"${name}" is reserved for decisions correx makes itself`;
  // `kind:id` is how the trail prints deciders (`auto:policy`): a name must not imitate one.
  if (folded.includes(':')) return `"${name}" contains ":", which the audit trail reserves`;
  return null;
}
