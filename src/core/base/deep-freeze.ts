/**
 * `value` frozen all the way down, and returned: what is handed to code that must not change it
 * (a validator, a request remembered across model calls) throws on a change instead of making it.
 * Members already frozen are taken as frozen throughout.
 */
export function deepFreeze<Value>(value: Value): Value {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
