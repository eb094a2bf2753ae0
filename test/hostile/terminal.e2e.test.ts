import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli, type CliResult } from '../helpers/cli.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// CI logs cannot be steered by data: a dataset's header, ids, questions and expected labels, a service's labels and
// error bodies, and reports read back, all printed in warnings, problems, summaries, gate lines and errors, never
// make a GitHub Actions workflow command (`::error::`, `::add-mask::`, `::set-output`, `##[error]`) nor reach the
// terminal as a control character (ESC [31m, the one-byte CSI 0x9b) or a bidi override. Only answer-eval's own
// annotation is a workflow command.

const dir = tempDir('answer-eval-terminal-');
const env = { ANSWER_AGENT_CODE: 'code-6631', GITHUB_ACTIONS: 'true' };
const servers: SpecServer[] = [];
afterAll(() => Promise.all(servers.map((s) => s.close())));

const ESC = '\u001b';
const CSI = '\u009b';
const RLO = '\u202e';
/** What a hostile value holds: every marker and escape at once. */
const HOSTILE = `::error::x ::add-mask::x ::set-output name=a::b ##[error]x ##vso[task.complete]x ${ESC}[31mred${CSI}32m ${RLO}txt.exe`;

/** Every line of a command's output that could steer a CI log or a terminal; empty when none does. */
function steering(res: CliResult): string[] {
  const bad: string[] = [];
  for (const [stream, text] of [['stdout', res.stdout], ['stderr', res.stderr]] as const) {
    for (const line of text.split('\n')) {
      const start = line.trimStart();
      const ours = stream === 'stdout' && start.startsWith('::error title=answer-eval gate::');
      if ((start.startsWith('::') && !ours) || line.includes('##[') || line.includes('##vso[')) bad.push(`${stream}: workflow command: ${line}`);
      if (/(?![\t\n])[\p{Cc}\u202a-\u202e\u2066-\u2069\u200e\u200f]/u.test(line)) bad.push(`${stream}: control character: ${JSON.stringify(line)}`);
    }
  }
  return bad;
}

const csvCell = (v: string): string => `"${v.replace(/"/g, '""')}"`;

describe('data in what answer-eval prints (built CLI, GITHUB_ACTIONS=true)', () => {
  it('never becomes a workflow command or a terminal escape: it is shown, neutralized', async () => {
    const reply = (label: string) => ({ body: { answers: [item(1, 90, { label, category: HOSTILE })] } });
    let broken = false;
    const server = await startSpecServer((req) => {
      const text = (req.body['question'] as { text: string }).text;
      if (text.startsWith('boom')) return { status: 500, body: `${HOSTILE}\n::error::second line` };
      if (text.startsWith('labelled')) return reply(broken ? 'something else' : HOSTILE);
      return reply('payments');
    });
    servers.push(server);
    const kb = writeTemp(dir, 'kb.jsonl', `${JSON.stringify({ sequence_number: 1, label: 'payments', category: 'Billing', answer: 'Pay by card' })}\n`);
    const ids = ['::error::id', '%0A::error::pct', `##[error]id`];
    const dataset = writeTemp(dir, 'hostile.csv', [
      ['id', 'question', 'expected_label', csvCell(`${HOSTILE}\n::warning::header`)].join(','),
      [csvCell(ids[0]!), csvCell(`labelled one\n::add-mask::question ${ESC}[2J`), csvCell(HOSTILE), 'x'].join(','),
      [csvCell(ids[1]!), csvCell('labelled two'), csvCell(HOSTILE), 'x'].join(','),
      [csvCell(ids[2]!), csvCell('labelled three'), csvCell(`${HOSTILE} || payments`), 'x'].join(','),
      ['plain', csvCell(`labelled one\n::add-mask::question ${ESC}[2J`), csvCell(HOSTILE), 'x'].join(','),
    ].join('\n'));

    const results: CliResult[] = [];
    const cli = async (args: string[]): Promise<CliResult> => {
      const res = await runCli(args, env);
      results.push(res);
      return res;
    };

    // validate: a column of the dataset's own (metadata) named by the header, a question asked twice, labels the knowledge base lacks
    const validated = await cli(['validate', '-d', dataset, '--kb', kb]);
    expect(validated.stdout).toContain('\\x1b[31mred\\x9b32m \\u202etxt.exe');
    expect(validated.stdout).toContain('\\n::warning::header\n'); // kept as metadata, its name on one line

    // a run: warnings about the knowledge base, the summary, a gate passed
    const base = join(dir, 'base');
    const agent = `::error::agent ${ESC}[31m`;
    const first = await cli(['run', '-d', dataset, '--base-url', server.url, '--agent', agent, '--kb', kb, '-o', base, '--min-accuracy', '0.99']);
    expect(first.code).toBe(0);
    expect(first.stderr).toContain('expected_label "::error::x');
    expect(first.stdout).toContain('(agent ::error::agent \\x1b[31m)');

    // a regression: the broken questions' ids in the gate lines, the comparison and the annotation
    broken = true;
    const head = join(dir, 'head');
    const second = await cli(['run', '-d', dataset, '--base-url', server.url, '--agent', agent, '-o', head, '--baseline', base, '--fail-on', 'regression']);
    expect(second.code).toBe(1);
    expect(second.stdout).toContain('broken: ::error::id (correct -> wrong)');
    const annotations = second.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toHaveLength(1);
    expect(annotations[0]).toMatch(/^::error title=answer-eval gate::--fail-on regression: 4 broken questions \(/);
    expect(annotations[0]).toContain('%250A::error::pct'); // `%` escaped: the runner cannot read a line break into it
    expect(await cli(['compare', base, head, '--out', join(dir, 'cmp'), '--fail-on', 'regression'])).toMatchObject({ code: 1 });

    // the service's error body: the circuit breaker's stop reason quotes it
    const boom = writeTemp(dir, 'boom.csv', 'id,question\nb1,boom one\nb2,boom two\n');
    const stopped = await cli(['run', '-d', boom, '--base-url', server.url, '--agent', 'a', '-o', join(dir, 'boom'), '--retries', '0', '--max-consecutive-errors', '2']);
    expect(stopped.code).toBe(3);
    expect(stopped.stderr).toMatch(/HTTP 500/);

    // reports read back: report --from, rescore
    await cli(['rescore', head, '--out', join(dir, 'rescored')]);
    await cli(['report', '--from', head, '--out', join(dir, 'again')]);

    for (const res of results) expect(steering(res)).toEqual([]);
  }, 120_000);
});
