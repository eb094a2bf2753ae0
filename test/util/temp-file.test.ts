import { closeSync, lstatSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeChunks } from '../../src/report/write.js';
import { createTemp, createTempSync, writeFileAtomically, writeFileThroughTemp } from '../../src/util/temp-file.js';
import { tempDir } from '../helpers/tmp.js';

// Every temporary file is created exclusively beside its final name, then renamed over it: a link planted under the
// temporary name is never written through, nor one at the final name.

const root = tempDir('answer-eval-temp-file-');
let n = 0;
/** A fresh directory, and a file outside it that a planted link points to. */
function place(): { dir: string; victim: string } {
  const dir = join(root, `d${n++}`);
  mkdirSync(dir);
  const victim = join(root, `victim-${n}`);
  writeFileSync(victim, 'VICTIM');
  return { dir, victim };
}

describe('createTemp and createTempSync', () => {
  it('take the file\'s own temporary name when it is free', async () => {
    const { dir } = place();
    const { tmp, handle } = await createTemp(join(dir, 'report.json'));
    await handle.close();
    expect(tmp).toBe(join(dir, 'report.json.tmp'));
    const sync = createTempSync(join(dir, 'b.json'));
    closeSync(sync.fd);
    expect(sync.tmp).toBe(join(dir, 'b.json.tmp'));
  });

  it('take another name when a link or a directory holds it, leaving it and what it points to as they are', async () => {
    const { dir, victim } = place();
    symlinkSync(victim, join(dir, 'a.json.tmp'));
    mkdirSync(join(dir, 'b.json.tmp'));
    const a = await createTemp(join(dir, 'a.json'));
    await a.handle.writeFile('mine');
    await a.handle.close();
    const b = createTempSync(join(dir, 'b.json'));
    closeSync(b.fd);
    expect(a.tmp).toMatch(/a\.json\.\d+-[0-9a-f]{12}\.tmp$/);
    expect(b.tmp).toMatch(/b\.json\.\d+-[0-9a-f]{12}\.tmp$/);
    expect(readFileSync(victim, 'utf8')).toBe('VICTIM');
    expect(lstatSync(join(dir, 'a.json.tmp')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(dir, 'b.json.tmp')).isDirectory()).toBe(true);
  });

  it('remove a stale regular file under the own name (a killed run\'s) and take the name', async () => {
    const { dir } = place();
    writeFileSync(join(dir, 'a.json.tmp'), 'stale');
    const { tmp, handle } = await createTemp(join(dir, 'a.json'));
    await handle.close();
    expect(tmp).toBe(join(dir, 'a.json.tmp'));
    expect(readFileSync(tmp, 'utf8')).toBe('');
  });
});

describe('writing through a temporary file', () => {
  it('replaces a link at the final name rather than write through it', async () => {
    const { dir, victim } = place();
    symlinkSync(victim, join(dir, 'run-options.json'));
    symlinkSync(victim, join(dir, 'run.trec'));
    writeFileThroughTemp(join(dir, 'run-options.json'), '{}\n');
    await writeChunks(join(dir, 'run.trec'), ['q1 Q0 d1 1 1.0 x\n']);
    expect(readFileSync(victim, 'utf8')).toBe('VICTIM');
    expect(lstatSync(join(dir, 'run-options.json')).isFile()).toBe(true);
    expect(readFileSync(join(dir, 'run.trec'), 'utf8')).toBe('q1 Q0 d1 1 1.0 x\n');
    expect(readdirSync(dir).sort()).toEqual(['run-options.json', 'run.trec']);
  });

  it('leaves no temporary file and the old file as it was when writing fails', async () => {
    const { dir } = place();
    writeFileSync(join(dir, 'report.json'), 'old');
    function* failing(): Generator<string> {
      yield 'half';
      throw Object.assign(new Error('disk full'), { code: 'ENOSPC', syscall: 'write' });
    }
    await expect(writeChunks(join(dir, 'report.json'), failing())).rejects.toThrow('disk full');
    expect(readdirSync(dir)).toEqual(['report.json']);
    expect(readFileSync(join(dir, 'report.json'), 'utf8')).toBe('old');
  });
});

describe('writeFileAtomically (the label page\'s set, a sampled set)', () => {
  it('keeps the mode it is given, exactly, from the moment the temporary file exists', async () => {
    const { dir } = place();
    const path = join(dir, 'set.csv');
    writeFileSync(path, 'old', { mode: 0o600 });
    await writeFileAtomically(path, 'new', { mode: statSync(path).mode });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(readFileSync(path, 'utf8')).toBe('new');
    expect(readdirSync(dir)).toEqual(['set.csv']);
  });

  it('without overwrite, keeps a file that is there (EEXIST) and leaves no temporary file; writes a new one', async () => {
    const { dir } = place();
    const path = join(dir, 'set.csv');
    writeFileSync(path, 'theirs');
    await expect(writeFileAtomically(path, 'mine', { overwrite: false })).rejects.toMatchObject({ code: 'EEXIST' });
    expect(readFileSync(path, 'utf8')).toBe('theirs');
    expect(readdirSync(dir)).toEqual(['set.csv']);
    await writeFileAtomically(join(dir, 'new.csv'), 'mine', { overwrite: false });
    expect(readFileSync(join(dir, 'new.csv'), 'utf8')).toBe('mine');
    expect(readdirSync(dir).sort()).toEqual(['new.csv', 'set.csv']);
  });

  it('never writes through a link planted under the temporary name, nor at the final name', async () => {
    const { dir, victim } = place();
    const path = join(dir, 'set.csv');
    symlinkSync(victim, `${path}.tmp`);
    symlinkSync(victim, path);
    await writeFileAtomically(path, 'mine');
    expect(readFileSync(victim, 'utf8')).toBe('VICTIM');
    expect(lstatSync(path).isFile()).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe('mine');
    expect(readdirSync(dir).sort()).toEqual(['set.csv', 'set.csv.tmp']);
  });
});
