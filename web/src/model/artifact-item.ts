import { records, text, type Payload } from './payload-fields.js';

/**
 * The text a model's answer made its artifact from: the finishing tool call's arguments when
 * the answer was one, else the answer's text (as the kernel's `answerTextOf`).
 */
export function answerText(result: Payload): string {
  const [finishing] = records(result, 'toolCalls');
  return finishing === undefined
    ? (text(result, 'text') ?? '')
    : (text(finishing, 'argsRaw') ?? '');
}

/** An artifact's content as the kernel reads it: the answer parsed as JSON (a ```json fence allowed), else the text. */
export function artifactContent(answer: string): unknown {
  const trimmed = answer.trim();
  const fenced = /^```(?:json)?\s*\n([\s\S]*?)\n?```$/.exec(trimmed);
  try {
    return JSON.parse(fenced?.[1] ?? trimmed) as unknown;
  } catch {
    return answer;
  }
}

const strings = (payload: Payload, key: string): string[] => {
  const value = payload[key];
  return Array.isArray(value)
    ? value.filter((item): item is string => typeof item === 'string')
    : [];
};

/** What an artifact says, read field by field for the kinds the default workflow defines. */
export type ArtifactBody =
  | {
      readonly kind: 'plan';
      readonly summary: string;
      readonly steps: string[];
      readonly files: { path: string; change: string }[];
    }
  | { readonly kind: 'review'; readonly verdict: string; readonly notes: string[] }
  | {
      readonly kind: 'change';
      readonly summary: string;
      readonly filesChanged: string[];
      readonly notesAddressed: string[];
    }
  | { readonly kind: 'verification'; readonly summary: string; readonly passed: boolean }
  | { readonly kind: 'other'; readonly json: string };

export function readArtifact(kind: string, content: unknown): ArtifactBody {
  const value =
    typeof content === 'object' && content !== null && !Array.isArray(content)
      ? (content as Payload)
      : undefined;
  if (value !== undefined && kind === 'plan' && Array.isArray(value.steps))
    return {
      kind: 'plan',
      summary: text(value, 'summary') ?? '',
      steps: strings(value, 'steps'),
      files: records(value, 'files').map((file) => ({
        path: text(file, 'path') ?? '?',
        change: text(file, 'change') ?? '?',
      })),
    };
  if (value !== undefined && kind === 'review' && typeof value.verdict === 'string')
    return { kind: 'review', verdict: value.verdict, notes: strings(value, 'notes') };
  if (value !== undefined && (kind === 'change' || kind === 'recovery'))
    return {
      kind: 'change',
      summary: text(value, 'summary') ?? '',
      filesChanged: strings(value, 'filesChanged'),
      notesAddressed: strings(value, 'notesAddressed'),
    };
  if (value !== undefined && kind === 'verification' && typeof value.passed === 'boolean')
    return { kind: 'verification', summary: text(value, 'summary') ?? '', passed: value.passed };
  return {
    kind: 'other',
    json: typeof content === 'string' ? content : JSON.stringify(content, null, 2),
  };
}
