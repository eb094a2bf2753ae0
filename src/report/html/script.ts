import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fromPackage } from '../../util/package-root.js';
import { AnswerEvalError } from '../../errors.js';

/** The pages' scripts, one per page (src/pages/<name>.ts), bundled by build-pages.mjs. */
export type PageScript = 'report' | 'report-conversations' | 'compare' | 'trend' | 'label';

const DIR = pathToFileURL(`${fromPackage('dist', 'page-scripts')}/`);
const loaded = new Map<string, string>();

/** A page script that is not there: the package was built without its page scripts (tsc alone, not `npm run build`). */
export class PageScriptMissingError extends AnswerEvalError {
  override name = 'PageScriptMissingError';
  constructor(path: string, cause: Error) {
    super(`the page script ${path} is missing (${cause.message.split('\n')[0]}): build the package with \`npm run build\`, which bundles the pages' scripts`, 'PAGE_SCRIPT_MISSING', 3, { cause });
  }
}

/**
 * The `<script>` element of a page: its bundled code (from `dir`, by default the package's), read once per process.
 * `</script` is written `<\/script` (the bundler does so already; this holds for any code), so the code cannot end
 * its element. Throws PageScriptMissingError when the bundle is not there: a page is never written without its script.
 */
export function pageScript(name: PageScript, dir: URL = DIR): string {
  const path = fileURLToPath(new URL(`${name}.js`, dir));
  let code = loaded.get(path);
  if (code === undefined) {
    try {
      code = readFileSync(path, 'utf8').trim();
    } catch (error) {
      throw new PageScriptMissingError(path, error as Error);
    }
    loaded.set(path, code);
  }
  return `<script data-page="${name}">${code.replace(/<\/(script)/gi, '<\\/$1')}</script>`;
}
