import { McpError } from './mcp-errors.js';

/** The variables every server gets so programs start (never a secret). */
const BASE_VARIABLES = ['PATH', 'LANG', 'LC_ALL', 'TZ'] as const;

/**
 * Replaces every `${NAME}` in `value` with correx's environment variable NAME. A variable that
 * is not set is an error naming it (a server silently started without its token fails later,
 * and less clearly).
 */
export function expandEnvReferences(
  value: string,
  env: Readonly<Record<string, string | undefined>>,
  where: string,
): string {
  return value.replace(/\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g, (_match, name: string) => {
    const found = env[name];
    if (found === undefined)
      throw new McpError(
        'mcp_secret_missing',
        `${where} names the environment variable ${name}, which is not set`,
      );
    return found;
  });
}

/**
 * The complete environment of a stdio server: the base variables, the ones it passes through,
 * and its own `env` entries with `${NAME}` references expanded. Nothing else of correx's.
 */
export function serverEnvironment(
  server: string,
  config: {
    readonly env: Readonly<Record<string, string>>;
    readonly passEnv: readonly string[];
  },
  env: Readonly<Record<string, string | undefined>>,
  homeDirectory: string,
): Record<string, string> {
  const result: Record<string, string> = { HOME: homeDirectory };
  for (const name of [...BASE_VARIABLES, ...config.passEnv]) {
    const value = env[name];
    if (value !== undefined) result[name] = value;
  }
  for (const [name, value] of Object.entries(config.env))
    result[name] = expandEnvReferences(value, env, `mcpServers.${server}.env.${name}`);
  return result;
}
