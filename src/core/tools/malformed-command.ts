import type { ToolDefinition } from './tool-contract.js';

/** Control characters (NUL included) and the Unicode line separators: no program name holds them. */
function hasControlCharacter(text: string): boolean {
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (code < 0x20 || code === 0x7f || code === 0x2028 || code === 0x2029) return true;
  }
  return false;
}

/**
 * Why a call's COMMAND arguments cannot name a program, or undefined when they can. An argv whose
 * program is empty, padded with spaces or holds a control character, and any command text or argv
 * element holding NUL (no process can receive one), is malformed: it is refused as such, never
 * assessed as a program the policy does not know.
 */
export function malformedCommand(
  tool: ToolDefinition,
  args: Readonly<Record<string, unknown>>,
): string | undefined {
  for (const [key, role] of Object.entries(tool.paramRoles)) {
    if (role !== 'COMMAND') continue;
    const value = args[key];
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return `\`${key}\` holds a NUL character, which no command can`;
      continue;
    }
    if (!Array.isArray(value)) continue;
    const [program] = value as unknown[];
    if (typeof program !== 'string') continue;
    if (program.trim() === '') return `\`${key}[0]\` (the program) is empty`;
    if (program !== program.trim())
      return `\`${key}[0]\` (the program) ${JSON.stringify(program)} starts or ends with white space`;
    if (hasControlCharacter(program))
      return `\`${key}[0]\` (the program) ${JSON.stringify(program)} holds a control character`;
    const index = (value as unknown[]).findIndex(
      (item) => typeof item === 'string' && item.includes('\u0000'),
    );
    if (index >= 0) return `\`${key}[${index}]\` holds a NUL character, which no argument can`;
  }
  return undefined;
}
