import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';
import { DATASET } from './validate-fixture.js';

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
const dir = tempDir();

describe('answer-eval validate', () => {
  it('prints every problem with file:line and exits 2 on an error', async () => {
    const path = writeTemp(dir, 'cli.csv', DATASET);
    const res = await runCli(['validate', '--dataset', path, '--kb', fixture('kb.jsonl')]);
    expect(res.code).toBe(2);
    expect(res.stdout).toContain(`${path}:5: error: id "a" is already used at line 2 (ids must be unique)\n`);
    expect(res.stdout).not.toContain('"notes"'); // the set's own column: kept as metadata, said in the summary
    expect(res.stdout).toMatch(/: \d+ questions, 5 errors, \d+ warnings; kept as metadata: notes\n$/);
    expect(res.stdout).toContain(`${path}:10: error: expected_sequence 12 is not in the knowledge base\n`);
    expect(res.stderr).toBe(`answer-eval: ${path}: 5 errors (see above)\n`);
  });
  it('counts a single error in the singular', async () => {
    const path = writeTemp(dir, 'one.csv', 'id,question\na,When?\na,Where?\n');
    const res = await runCli(['validate', '-d', path]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe(`${path}:3: error: id "a" is already used at line 2 (ids must be unique)\n${path}: 1 question, 1 error, 0 warnings\n`);
    expect(res.stderr).toBe(`answer-eval: ${path}: 1 error (see above)\n`);
  });
  it('exits 0 with warnings only', async () => {
    const path = writeTemp(dir, 'warn.csv', 'question,expected_label,extra\nWhen?,opening-hours,x\nWhen?,opening-hours,y\n');
    const res = await runCli(['validate', '-d', path, '--kb', fixture('kb.csv')]);
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`${path}:3: warning: the same question as line 2 ("When?"), asked twice\n${path}: 2 questions, 0 errors, 1 warning; kept as metadata: extra\n`);
  });
});
