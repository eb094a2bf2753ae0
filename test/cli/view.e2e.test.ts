import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { renderString } from '../../src/report/formats.js';
import { runCli, spawnCli } from '../helpers/cli.js';
import { makeReport } from '../helpers/report-fixture.js';
import { tempDir } from '../helpers/tmp.js';

// `answer-eval view DIR --port 0 --no-open`: prints its URL, answers an index linking every run's report.html, serves
// each, and stops cleanly on Ctrl-C.

const dir = tempDir('answer-eval-view-e2e-');

describe('answer-eval view', () => {
  it('serves the index of every run and each report.html; SIGINT stops it with exit 0', async () => {
    for (const [name, startedAt] of [['a', '2026-11-24T02:00:00.000Z'], ['b', '2026-11-25T02:00:00.000Z'], ['nightly/c', '2026-11-26T02:00:00.000Z']] as const) {
      const report = makeReport(10);
      report.run.startedAt = startedAt;
      mkdirSync(join(dir, 'reports', name), { recursive: true });
      writeFileSync(join(dir, 'reports', name, 'report.json'), renderString('json', report));
      writeFileSync(join(dir, 'reports', name, 'report.html'), renderString('html', report));
    }
    const view = spawnCli(['view', join(dir, 'reports'), '--port', '0', '--no-open'], { DISPLAY: ':0' });
    const url = await new Promise<string>((resolve, reject) => {
      const poll = setInterval(() => {
        const found = /at (http:\/\/127\.0\.0\.1:\d+\/)/.exec(view.output().stdout);
        if (found) {
          clearInterval(poll);
          resolve(found[1]!);
        }
      }, 50);
      void view.exited.then(() => reject(new Error(`view exited: ${view.output().stderr}`)));
    });
    expect(view.output().stdout).toBe(`answer-eval view: 3 runs under ${join(dir, 'reports')} at ${url}\nstop with Ctrl-C\n`);
    const index = await (await fetch(url)).text();
    const reports = [...new Set([...index.matchAll(/href="([^"]+\/report\.html)"/g)].map((m) => m[1]!))];
    expect(reports).toEqual(['nightly/c/report.html', 'b/report.html', 'a/report.html']);
    for (const path of reports) {
      const page = await fetch(new URL(path, url));
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>answer-eval · ');
    }
    view.child.kill('SIGINT');
    const stopped = await view.exited;
    expect(stopped.code).toBe(0);
    expect(stopped.stdout).toContain('answer-eval view stopped\n');
    expect(stopped.stderr).toBe('');
  });

  it('a DIR that is not a directory, a port in use: exit 2 saying so', async () => {
    const missing = await runCli(['view', join(dir, 'nope'), '--no-open']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`answer-eval: ${join(dir, 'nope')}: no such directory (answer-eval view DIR serves a reports directory, default reports/)\n`);
    const first = spawnCli(['view', dir, '--port', '0', '--no-open']);
    const port = await new Promise<string>((resolve) => {
      const poll = setInterval(() => {
        const found = /127\.0\.0\.1:(\d+)\//.exec(first.output().stdout);
        if (found) {
          clearInterval(poll);
          resolve(found[1]!);
        }
      }, 50);
    });
    const second = await runCli(['view', dir, '--port', port, '--no-open']);
    expect(second.code).toBe(2);
    expect(second.stderr).toContain(`--port ${port}: 127.0.0.1:${port} is already in use`);
    first.child.kill('SIGINT');
    expect((await first.exited).code).toBe(0);
  });
});
