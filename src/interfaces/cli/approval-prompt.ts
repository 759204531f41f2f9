/** How a person answered the approval prompt on this terminal. */
export type PromptAnswer =
  | { readonly kind: 'approve' }
  | { readonly kind: 'always' }
  | { readonly kind: 'deny'; readonly reason: string }
  /** Ctrl-D at the reason: nothing decided here; the call still waits (another terminal, the web). */
  | { readonly kind: 'withdrawn' };

/** Reads one line after showing `question`; null on Ctrl-D. */
export type AskLine = (question: string, signal: AbortSignal) => Promise<string | null>;

/**
 * The approval question: only the offered answers are taken (y, n, and a when an exact grant can
 * cover the call), anything else (Enter alone, "maybe") asks again; there is no default. A denial's
 * reason is asked for on its own line and may not be empty. Ctrl-D at the question is a denial
 * (its reason asked next); Ctrl-D at the reason withdraws the prompt without deciding.
 */
export async function askApproval(
  ask: AskLine,
  say: (line: string) => void,
  offer: { readonly callId: string; readonly always: string | null },
  signal: AbortSignal,
): Promise<PromptAnswer> {
  const choices = offer.always === null ? '[y]es / [n]o' : '[y]es / [n]o / [a]lways allow';
  if (offer.always !== null) say(`  always    would record the grant: ${offer.always}`);
  for (;;) {
    const answer = await ask(`approve ${offer.callId}? ${choices}: `, signal);
    const word = answer?.trim().toLowerCase();
    if (word === 'y' || word === 'yes') return { kind: 'approve' };
    if (offer.always !== null && (word === 'a' || word === 'always')) return { kind: 'always' };
    if (answer === null || word === 'n' || word === 'no') return askReason(ask, say, signal);
    say(
      word === ''
        ? `  no answer taken: type ${offer.always === null ? 'y or n' : 'y, n or a'}, then Enter`
        : `  "${answer!.trim()}" is not an answer here: type ${offer.always === null ? 'y or n' : 'y, n or a'}`,
    );
  }
}

async function askReason(
  ask: AskLine,
  say: (line: string) => void,
  signal: AbortSignal,
): Promise<PromptAnswer> {
  for (;;) {
    const reason = await ask(
      'reason for the denial (the model reads it; Ctrl-D: do not decide here): ',
      signal,
    );
    if (reason === null) return { kind: 'withdrawn' };
    if (reason.trim() !== '') return { kind: 'deny', reason: reason.trim() };
    say('  a denial needs a reason: the model uses it to change course');
  }
}
