import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

describe('the tree', () => {
  it('holds no merge conflict markers', () => {
    let files: string[];
    try {
      files = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' }).split('\n').filter((f) => f !== '' && !/\.(png|gz)$/.test(f));
    } catch {
      return; // not a git checkout (a packed copy): nothing to check
    }
    const marked = files.filter((f) => {
      let text: string;
      try {
        text = readFileSync(join(ROOT, f), 'utf8');
      } catch {
        return false; // deleted in the working tree
      }
      return /^(<{7} |>{7} |={7}$)/m.test(text);
    });
    expect(marked).toEqual([]);
  });
});
