import { z } from 'zod';
import { defineEvent } from '../events/event-definition.js';

/** What a session may spend: tokens (input and output), money by the profiles' prices, time. */
export const BudgetKindSchema = z.enum(['tokens', 'cost', 'duration']);
export type BudgetKind = z.infer<typeof BudgetKindSchema>;

const amount = z.number().nonnegative();

/**
 * The session reached one of its budgets before a model call: nothing more is spent. In prompt
 * mode it waits for a person to raise the budget (`budget_raised`); otherwise the workflow
 * fails with category `budget`. `used` and `limit` are tokens, US dollars or milliseconds.
 */
export const budgetExhausted = defineEvent({
  type: 'budget_exhausted',
  description:
    'The session reached a budget (tokens, cost or duration) before its next model call.',
  origin: 'decision',
  fields: () => ({ budget: BudgetKindSchema, limit: amount, used: amount }),
});

/** A person raised a budget of a session that stopped at it (`correx resume --max-…`). */
export const budgetRaised = defineEvent({
  type: 'budget_raised',
  description: 'A person raised one of the session budgets.',
  origin: 'command',
  fields: () => ({ budget: BudgetKindSchema, limit: amount, by: z.string().min(1) }),
});

export const budgetEvents = [budgetExhausted, budgetRaised] as const;
