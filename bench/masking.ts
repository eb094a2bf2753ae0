// A micro-benchmark of the masking on the run's hot path, against the regular expression it replaced
// (bench/lib/regex-mask.ts): node bench/.build/masking.js after `npm run build && npx tsc -p bench/tsconfig.json` (not part of npm run
// bench). Before, each result line (~1-2 KB of JSON) was tested with the expression built from the agent code; now each
// 200 body is searched as text (and as bytes when it is not read as UTF-8; src/client/ask.ts) for every secret of the
// run. Prints ns per reply.
import { holdsSecret } from './lib/regex-mask.js';

type SecretsModule = typeof import('../dist/client/secrets/secrets.js');
const { Secrets } = (await import(new URL('../../dist/client/secrets/secrets.js', import.meta.url).href)) as SecretsModule;

const flags = { is_agent_answer: 'true', is_dummy_answer: 'false', is_dummy_floor_answer: 'false', is_suggestion_answer: 'false', is_international_question: 'false', is_dialog_in_progress: 'false', is_dialogue_answer: 'false', delay: '-1' };
const TEXTS = [
  'You can pay your bill by card, bank transfer or direct debit. Go to "My account" → "Payments" & choose a method.\nFees: none.',
  'Your meter is read every three months; if you can\'t be home, send us a photo (JPEG ≤ 5 MB) — we’ll do the rest.',
  'Café opening hours: 9:00–17:00. Für Fragen: +49 30 123456. 50% off tariffs <today only>.',
  'To move house, tell us 48 h before: we close your account & open a new one at the new address.',
];

/** A 200 body of `n` answers, as a service sends it, and the result line a run journals for it. */
function reply(n: number, seed: number): { body: string; line: string } {
  const answers = Array.from({ length: n }, (_, i) => ({ answer: TEXTS[(seed + i) % TEXTS.length]!, sequence_number: String(i + 1), answer_score: String(90 - i * 7), tags: 'billing|payments', label: `label_${i}`, category: 'billing', ...flags }));
  const body = JSON.stringify({ answers });
  const line = JSON.stringify({ id: `q${seed}`, line: seed + 2, question: `How do I pay my bill? (${seed})`, language: 'en', tags: [], expected: { expect: null, sequence: ['1'] }, outcome: 'correct', top1Index: 0, answers: answers.map((a) => ({ ...a, sequence_number: Number(a.sequence_number), answer_score: Number(a.answer_score), tags: a.tags.split('|'), is_agent_answer: true })), unordered: false, latencyMs: 1.23, attempts: 1, error: null, rank: 1, margin: 7 });
  return { body, line };
}

/** The best of seven timed rounds (the machine is shared: the best is the one least disturbed), in ns per call. */
function time(label: string, rounds: number, work: () => void): number {
  for (let i = 0; i < rounds / 10; i++) work(); // warm up
  let best = Infinity;
  for (let r = 0; r < 7; r++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < rounds / 7; i++) work();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / (rounds / 7));
  }
  process.stdout.write(`${label.padEnd(64)} ${best.toFixed(0).padStart(7)} ns\n`);
  return best;
}

const CODE = 'Zq8w-k3Vx-7pLm-Q2rT';
const cases = [2, 4, 8].map((n) => ({ n, replies: Array.from({ length: 16 }, (_, seed) => reply(n, seed)) }));
const onlyCode = new Secrets([{ kind: 'agent code', value: CODE }]);
const withUrl = new Secrets([
  { kind: 'agent code', value: CODE },
  { kind: 'password', value: 'pässwort-42', typed: ['p%C3%A4sswort-42'] },
  { kind: 'credentials', value: Buffer.from('user:pässwort-42').toString('base64') },
  { kind: 'query value', value: 'tok_8f2a91c4e7' },
]);
const ROUNDS = 20_000;
for (const { n, replies } of cases) {
  const size = Math.round(replies.reduce((s, r) => s + r.line.length, 0) / replies.length);
  const bodies = replies.map((r) => ({ text: r.body, bytes: Buffer.from(r.body) }));
  let k = 0;
  const before = time(`${n} answers: before, the expression on the result line (${size} B)`, ROUNDS, () => void holdsSecret(replies[k++ % 16]!.line, CODE));
  const after = time(`${n} answers: now, the agent code, in the body`, ROUNDS, () => void onlyCode.holds(bodies[k++ % 16]!.text));
  const url = time(`${n} answers: now, code + password, Basic, a query value`, ROUNDS, () => void withUrl.holds(bodies[k++ % 16]!.text));
  time(`${n} answers: now, all four, bytes too (a body not in UTF-8)`, ROUNDS, () => {
    const b = bodies[k++ % 16]!;
    void (withUrl.holds(b.text) || withUrl.holdsBytes(b.bytes));
  });
  process.stdout.write(`  now / before: ${(after / before).toFixed(2)} (code only), ${(url / before).toFixed(2)} (with the URL's secrets)\n`);
}
const long = 'Zx'.repeat(2_500);
const longSecrets = new Secrets([{ kind: 'agent code', value: long }]);
const { body } = reply(4, 1);
time('a code of 5,000 characters, 4 answers (the expression overflows)', ROUNDS, () => void longSecrets.holds(body));
