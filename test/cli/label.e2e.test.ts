import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { LabelState } from '../../src/pages/label/data.js';
import { runCli, spawnCli, type SpawnedCli } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

// `answer-eval label RUN --port 0 --no-open` over a run of the embedded engine: prints the URL with its token,
// searches the engine's knowledge base, writes a decision, and stops cleanly on Ctrl-C.

const dir = tempDir('answer-eval-label-e2e-');

/** The URL the command prints once it listens. */
function urlOf(cli: SpawnedCli): Promise<string> {
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      const found = /^at (http:\/\/127\.0\.0\.1:\d+\/\?token=[\w-]+)/m.exec(cli.output().stdout);
      if (found) {
        clearInterval(poll);
        resolve(found[1]!);
      }
    }, 50);
    void cli.exited.then(() => {
      clearInterval(poll);
      reject(new Error(`label exited: ${cli.output().stderr}`));
    });
  });
}

describe('answer-eval label', () => {
  it("serves the run's questions with the engine's knowledge base, writes a decision into the set; SIGINT stops it with exit 0", async () => {
    const set = join(dir, 'faq.csv');
    writeFileSync(set, 'id,question,count\nq1,how can I pay my bill?,4\nq2,I want a refund,\nq3,what is the capital of mars,\n');
    const ran = await runCli(['run', '-d', set, '-o', join(dir, 'run'), '--format', 'json', '-q']);
    expect(ran.code, ran.stderr).toBe(0);
    const cli = spawnCli(['label', join(dir, 'run'), '--port', '0', '--no-open'], { DISPLAY: ':0' });
    const url = await urlOf(cli);
    expect(cli.output().stdout).toBe(`answer-eval label: 3 questions to label, written into ${set} (log ${set}.labels.jsonl)\nat ${url}\nstop with Ctrl-C\n`);
    const { origin, searchParams } = new URL(url);
    const headers = { 'content-type': 'application/json', 'x-answer-eval-token': searchParams.get('token')!, origin };
    expect((await fetch(url)).status).toBe(200);
    expect((await fetch(origin)).status).toBe(403);
    const state = (await (await fetch(new URL('/api/state', origin), { method: 'POST', headers, body: '{}' })).json()) as LabelState;
    expect(state.kb).toMatch(/datasets\/sample\/kb\.jsonl$/);
    expect(state.items.map((i) => i.id)).toEqual(['q1', 'q2', 'q3']);
    const decided = await fetch(new URL('/api/decide', origin), { method: 'POST', headers, body: JSON.stringify({ revision: state.revision, id: 'q3', decision: { kind: 'fallback' } }) });
    expect(decided.status).toBe(200);
    expect(readFileSync(set, 'utf8')).toBe('id,question,count,expect\nq1,how can I pay my bill?,4,\nq2,I want a refund,,\nq3,what is the capital of mars,,fallback\n');
    cli.child.kill('SIGINT');
    const stopped = await cli.exited;
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain(`answer-eval label stopped: 1 decision in force in ${set}.labels.jsonl, 2 questions still to label\n`);
    expect(stopped.stderr).toBe('');
  });

  it('a run that is not there, a set that is not a file: exit 2 saying so', async () => {
    const missing = await runCli(['label', join(dir, 'nope'), '--no-open']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^answer-eval: .*nope/);
    const notFile = await runCli(['label', join(dir, 'run'), '-d', dir, '--no-open']);
    expect(notFile.code).toBe(2);
    expect(notFile.stderr).toBe(`answer-eval: ${dir}: not a regular file: answer-eval label writes labels into a question set file, named with -d FILE\n`);
  });
});
