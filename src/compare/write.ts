import { mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { COMPARE_FORMATS, type CompareFormat } from './render/index.js';
import type { Comparison } from './schema.js';

/** Writes compare.json, compare.html and compare.md into `dir` (through temporary files). */
export async function writeComparison(c: Comparison, dir: string): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const written: string[] = [];
  for (const format of Object.keys(COMPARE_FORMATS) as CompareFormat[]) {
    const { file, render } = COMPARE_FORMATS[format];
    const path = join(dir, file);
    await writeFile(`${path}.tmp`, render(c));
    await rename(`${path}.tmp`, path);
    written.push(path);
  }
  return written;
}
