import { z } from 'zod';
import { ManifestEntrySchema, ManifestExclusionSchema } from './context-manifest.js';

/*
 * A context manifest recorded by reference (flag `manifest-by-reference`): what one model call saw,
 * written as the change from the session's previous manifest written this way. Every item (an
 * included entry or an exclusion) is named by its digest, the SHA-256 of its canonical JSON; an
 * item's whole record is written once, where its digest first appears in the session. The full
 * manifest is rebuilt by `manifest-history.ts`, the one place every reader goes through.
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
 * manifest: drop `removed` (one occurrence each), keep the rest in order (`unchanged` of them),
 * then insert `added` at their indices of the new list, in ascending order.
 */
const listChange = <Item extends z.ZodType>(item: Item) =>
  z.strictObject({
    removed: z.array(digestField),
    unchanged: z.number().int().nonnegative(),
    added: z.array(addedField(item)),
  });

export const ContextManifestReferenceSchema = z.strictObject({
  budgetTokens: z.number().int().nonnegative(),
  totalTokens: z.number().int().nonnegative(),
  tokenizer: z.string().min(1),
  /** The request whose manifest this one changes; null for the first of the session. */
  after: z.string().min(1).nullable(),
  included: listChange(ManifestEntrySchema),
  excluded: listChange(ManifestExclusionSchema),
});
export type ContextManifestReference = z.infer<typeof ContextManifestReferenceSchema>;
export type ManifestListChange<Item> = {
  removed: string[];
  unchanged: number;
  added: { at: number; digest: string; item?: Item | undefined }[];
};
