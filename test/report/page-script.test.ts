import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { AnswerEvalError } from '../../src/errors.js';
import { pageScript, PageScriptMissingError } from '../../src/report/html/script.js';
import { tempDir } from '../helpers/tmp.js';

describe('the pages’ scripts (src/report/html/script.ts)', () => {
  it('inlines the bundle build-pages.mjs wrote, as one script element marked with its page', () => {
    for (const name of ['report', 'report-conversations', 'compare', 'trend'] as const) {
      const element = pageScript(name);
      expect(element).toMatch(new RegExp(`^<script data-page="${name}">.{100,}</script>$`, 's'));
      expect(element.slice(0, -'</script>'.length)).not.toMatch(/<\/script/i);
    }
  });

  it('a missing bundle is an error that says how to build it, never a page without its script', () => {
    const empty = pathToFileURL(`${tempDir()}/`);
    expect(() => pageScript('compare', empty)).toThrow(PageScriptMissingError);
    try {
      pageScript('compare', empty);
    } catch (error) {
      expect(error).toBeInstanceOf(AnswerEvalError);
      expect((error as AnswerEvalError).exitCode).toBe(3);
      expect((error as Error).message).toMatch(/^the page script \/.*\/compare\.js is missing \(ENOENT.*\): build the package with `npm run build`/);
    }
  });

  it('writes </script in any code so that it cannot end its element', () => {
    const dir = join(tempDir(), 'scripts');
    mkdirSync(dir);
    writeFileSync(join(dir, 'trend.js'), 'console.log("</SCRIPT><b>", "</b>");\n');
    expect(pageScript('trend', pathToFileURL(`${dir}/`))).toBe('<script data-page="trend">console.log("<\\/SCRIPT><b>", "</b>");</script>');
  });
});
