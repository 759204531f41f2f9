import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * A folder under the package's `assets/`, found by walking up from this module: the same
 * answer from the sources (`src/...`), the compiled tree (`dist/...`) and the bundled CLI
 * (`dist/cli/...`), which sit at different depths.
 */
export function packageAssets(relative: string): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'assets')))
      return join(dir, 'assets', relative);
    const parent = dirname(dir);
    if (parent === dir)
      throw new Error(`no assets/ folder above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}
