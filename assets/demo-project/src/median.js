/** The median of a non-empty list of numbers. */
export function median(values) {
  if (values.length === 0) throw new RangeError('median of an empty list');
  const sorted = [...values].sort();
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}
