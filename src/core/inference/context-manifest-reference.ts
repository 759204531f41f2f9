import { z } from 'zod';
import { ManifestEntrySchema, ManifestExclusionSchema } from './context-manifest.js';

/*
 * A context manifest recorded by reference (flag `manifest-by-reference`): what one model call saw,
 * written as the change from the session's previous manifest written this way. An item (an
 * included entry or an exclusion) that comes in is named by its digest, the SHA-256 of its
 * canonical JSON; its whole record is written once, where its digest first appears in the
 * session. Items of the previous manifest that stay are not named again (positions say which
 * go). The full manifest is rebuilt by `manifest-history.ts`, the one place every reader uses.
 */

const digestField = z.string().regex(/^[0-9a-f]{64}$/);

/** An item placed in the new list at index `at`; `item` only where the session first sees it. */
const addedField = <Item extends z.ZodType>(item: Item) =>
  z.strictObject({
    at: z.number().int().nonnegative(),
    digest: digestField,
    item: item.optional(),
  });

/**
 * One list of the manifest (included or excluded) as a change from the same list of the previous
 * manifest: drop the items at the `removed` positions of the previous list (ascending), keep the
 * rest in order (`unchanged` of them), then insert `added` at their indices of the new list, in
 * ascending order.
 */
const listChangeFields = <Item extends z.ZodType>(item: Item) => ({
  removed: z.array(z.number().int().nonnegative()),
  unchanged: z.number().int().nonnegative(),
  added: z.array(addedField(item)),
});

/**
 * Exclusions also say which duplicates now point at another copy: the builder keeps the newest
 * of identical contents, so a new copy re-points every earlier one (`duplicateOf`). `retargeted`
 * applies to the previous list before anything is removed: each `duplicate` exclusion whose
 * `duplicateOf` is a `from` takes its `to` (all at once, no chains), instead of each being
 * written again.
 */
const retargetedField = z.array(z.strictObject({ from: z.string().min(1), to: z.string().min(1) }));

export const ContextManifestReferenceSchema = z.strictObject({
  budgetTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  tokenizer: z.string().min(1),
  /** The request whose manifest this one changes; null for the first of the session. */
  after: z.string().min(1).nullable(),
  included: z.strictObject(listChangeFields(ManifestEntrySchema)),
  excluded: z.strictObject({
    ...listChangeFields(ManifestExclusionSchema),
    retargeted: retargetedField.optional(),
  }),
});
export type ContextManifestReference = z.infer<typeof ContextManifestReferenceSchema>;
export type ManifestListChange<Item> = {
  removed: number[];
  unchanged: number;
  added: { at: number; digest: string; item?: Item | undefined }[];
};
export type DuplicateRetarget = { from: string; to: string };
