import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ReportSchema, type Report } from '../../src/model/report.js';
import { runCli } from '../helpers/cli.js';
import { item, startSpecServer, type SpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

// Object keys from data are data: a reply item, a reply or a dataset row with keys `__proto__`, `constructor` or
// `prototype` never supplies a field through the prototype, and a run and its rescore agree. A reply item holding
// `"__proto__": {"label": "billing"}` and no label of its own used to be judged correct by the run (the fast reply
// parser copied the key by assignment, making it the item's prototype) and wrong by rescore (the journal lost it).

const dir = tempDir('answer-eval-keys-');
const env = { ANSWER_AGENT_CODE: 'code-8812' };
let server: SpecServer;
afterAll(() => server?.close());

const PROTO = { label: 'billing', category: 'Billing', tags: ['billing'], answer: 'Pay by card' };
/** The reply to each question (by its first word), none with a label of its own: raw JSON, since an object literal cannot hold an own `__proto__`. */
const REPLIES: Record<string, string> = {
  // the fast parser's path (every value as the spec writes it)
  proto: JSON.stringify({ answers: [item(1, 90, { answer: 'x' })] }).replace('"label":"label-1",', '').replace(/\}\]\}$/, `,"__proto__":${JSON.stringify(PROTO)}}],"__proto__":{"post_processed_answer":"again?"}}`),
  // the schema's path (`tags: null` is left to it)
  'proto-schema': JSON.stringify({ answers: [{ ...item(1, 90, { answer: 'x' }), tags: null }] }).replace('"label":"label-1",', '').replace(/\}\]\}$/, `,"__proto__":${JSON.stringify(PROTO)}}]}`),
  ctor: JSON.stringify({ answers: [{ ...item(2, 90, { answer: 'x' }), constructor: PROTO, prototype: PROTO, toString: PROTO, hasOwnProperty: PROTO }] }).replace(/"label":"label-2",/, ''),
  // names of Object.prototype fields as the values they are
  named: JSON.stringify({ answers: [item(3, 90, { label: 'constructor', category: '__proto__', tags: 'toString|hasOwnProperty', answer: 'prototype' })] }),
};

const readReport = (out: string): Report => ReportSchema.parse(JSON.parse(readFileSync(join(out, 'report.json'), 'utf8')));
const outcomes = (r: Report) => Object.fromEntries(r.results.map((x) => [x.id, x.outcome]));

describe('keys named like Object.prototype fields (built CLI)', () => {
  it('in replies and dataset rows are data: nothing is judged through the prototype, and run and rescore agree', async () => {
    server = await startSpecServer((req) => ({ body: REPLIES[(req.body['question'] as { text: string }).text.split(' ')[0]!]! }));
    // a JSONL row's own `__proto__` key is an unknown column, not where expectations come from
    const jsonl = writeTemp(dir, 'keys.jsonl', [
      '{"id":"__proto__","question":"proto","expected_label":"billing"}',
      '{"id":"constructor","question":"proto-schema","expected_category":"Billing"}',
      '{"id":"prototype","question":"ctor","expected_label":"billing"}',
      '{"id":"toString","question":"named","expected_label":"constructor","expected_category":"__proto__","expected_tag":"hasOwnProperty","expected_answer":"prototype"}',
      '{"id":"hasOwnProperty","question":"proto again","__proto__":{"expected_label":"billing","expect":"answer"},"constructor":{"expected_label":"x"}}',
      '{"id":"valueOf","question":"proto once more","expected_answer":"Pay by card"}',
    ].join('\n'));
    const csv = writeTemp(dir, 'keys.csv', [
      'id,question,expected_label,__proto__,constructor,prototype,toString',
      '__proto__,proto,billing,billing,billing,billing,billing',
      'constructor,named,constructor,x,x,x,x',
    ].join('\n'));
    const expected = {
      // ['__proto__']: a computed key is an own field (a literal `__proto__:` would set the prototype)
      jsonl: { ['__proto__']: 'wrong', constructor: 'wrong', prototype: 'wrong', toString: 'correct', hasOwnProperty: 'unlabeled', valueOf: 'wrong' },
      csv: { ['__proto__']: 'wrong', constructor: 'correct' },
    };

    for (const [name, dataset] of [['jsonl', jsonl], ['csv', csv]] as const) {
      const validated = await runCli(['validate', '-d', dataset]);
      expect(validated.code).toBe(0);
      // the dataset's own columns are its metadata, those named like Object.prototype fields too; `__proto__`, which
      // no JSON reader keeps, is left out and said
      expect(validated.stdout).toContain('warning: column "__proto__" is left out: that name cannot be kept as metadata');
      expect(validated.stdout).toContain(`kept as metadata: ${name === 'csv' ? 'constructor, prototype, toString' : 'constructor'}\n`);

      const out = join(dir, name);
      const run = await runCli(['run', '-d', dataset, '--base-url', server.url, '--agent', 'a', '-o', out, '--quiet'], env);
      expect(run.code).toBe(0);
      const report = readReport(out);
      expect(outcomes(report)).toEqual(expected[name]);
      for (const r of report.results) {
        for (const a of r.answers) expect(Object.getPrototypeOf(a)).toBe(Object.prototype);
        // nothing of the reply's `__proto__` was taken for the reply's own post-processed answer
        expect(r.postProcessedAnswer ?? null).toBeNull();
      }

      // a question without a `constructor` value has an empty cell, not Object's constructor
      const csvText = readFileSync(join(out, 'results.csv'), 'utf8');
      expect(csvText).not.toContain('native code');
      expect(csvText.split('\n')[0]).toContain(',constructor');
      expect(report.run.dataset.metadata?.leftOut).toEqual(['__proto__']);

      const rescored = join(dir, `${name}-rescored`);
      const again = await runCli(['rescore', out, '--out', rescored]);
      expect(again.stderr).toBe('');
      expect(again.code).toBe(0);
      expect(outcomes(readReport(rescored))).toEqual(expected[name]);

      // ids named like Object.prototype fields pair up in a comparison like any other
      const compared = await runCli(['compare', out, rescored, '--out', join(dir, `${name}-compare`)]);
      expect(compared.code).toBe(0);
      expect(compared.stdout).toContain(`${Object.keys(expected[name]).length} common, 0 added, 0 removed, 0 changed`);
    }
    // the reply's `__proto__` field is kept in the journal and the report as the field it is
    expect(readFileSync(join(dir, 'jsonl', 'report.json'), 'utf8')).toContain(`"__proto__":${JSON.stringify(PROTO)}`);
  });
});
