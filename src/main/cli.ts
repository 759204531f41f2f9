import { readFileSync } from 'node:fs';
import process from 'node:process';

/**
 * The `correx` executable's entry. `correx --version` is answered here, from package.json, before
 * anything else loads (a person's first command; it costs Node's own start and little more).
 * Every other command line goes to the composition root, `cli-main.ts`.
 */
const args = process.argv.slice(2);
if (args.length > 0 && args.every((arg) => arg === '--version' || arg === '-V')) {
  // Two levels below the package root, as src/main, dist/main and the bundle's dist/cli all are.
  const { version } = JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  // A reader that closed the pipe wanted nothing more (as `endQuietlyOnClosedPipe` has it).
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  process.stdout.write(`${version}\n`);
} else {
  await import('./cli-main.js');
}
