/** The last item of each key, in the order the keys first appear. */
export function latestBy<Item>(items: readonly Item[], key: (item: Item) => string): Item[] {
  const latest = new Map<string, Item>();
  for (const item of items) latest.set(key(item), item);
  return [...latest.values()];
}
