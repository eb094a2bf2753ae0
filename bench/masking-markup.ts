// A micro-benchmark of the search through markup (issue 41: a secret split by markup, src/client/secrets/markup-view.ts)
// on the run's hot path: `holds` on every 200 body, per output, against the same search of a build without it.
//   npm run build && npx tsc -p bench/tsconfig.json && node bench/.build/masking-markup.js [BEFORE_DIST]
// BEFORE_DIST: the dist/ of another build (e.g. the commit before, built in its own directory); without it, only this
// build is timed. Not part of npm run bench. Prints ns per reply, best of 7 rounds, the two builds alternated twice.

type SecretsModule = typeof import('../dist/client/secrets/secrets.js');
type RenderModule = typeof import('../dist/engine/render.js');

const here = new URL('../../dist/', import.meta.url);
const before = process.argv[2];
const load = async (dist: URL): Promise<SecretsModule> => (await import(new URL('client/secrets/secrets.js', dist).href)) as SecretsModule;
const builds: [string, SecretsModule][] = [['now', await load(here)]];
if (before !== undefined) builds.unshift(['before', await load(new URL(`file://${before.replace(/\/?$/, '/')}`))]);
const { render } = (await import(new URL('engine/render.js', here).href)) as RenderModule;

const TEXTS = [
  'You can pay your bill by card, bank transfer or direct debit. Go to "My account" → "Payments" & choose a method.\nFees: none.',
  'Your meter is read every three months; if you can\'t be home, send us a photo (JPEG ≤ 5 MB) — we’ll do the rest.',
  'Café opening hours: 9:00–17:00. Für Fragen: +49 30 123456. 50% off tariffs <today only>.',
  'To move house, tell us 48 h before: we close your account & open a new one at the new address.',
];
const flags = { is_agent_answer: 'true', is_dummy_answer: 'false', is_dummy_floor_answer: 'false', is_suggestion_answer: 'false', is_international_question: 'false', is_dialog_in_progress: 'false', is_dialogue_answer: 'false', delay: '-1' };
const response = {
  answers: TEXTS.map((answer, i) => ({ answer, sequence_number: String(i + 1), answer_score: String(90 - 7 * i), tags: 'billing|payments', label: `label_${i}`, category: 'billing', ...flags })),
};
const page = `<!DOCTYPE html><html><head><title>502 Bad Gateway</title><style>body{font-family:sans-serif}</style></head><body><h1>Bad Gateway</h1><p>The proxy server received an invalid response from an upstream server.<br>Request <code>POST /api/answer</code> at <b>2026-12-01 10:00:00</b>.</p><hr><address>nginx/1.25.3</address></body></html>`;
const CODE = 'Zq8w-k3Vx-7pLm-Q2rT';
const BODIES: [string, string][] = [
  ['json, 4 answers (one holds "<")', render(response, 'json').body],
  ['json, 4 answers, no "<"', render(response, 'json').body.replace(/[<>]/g, '')],
  ['xml, 4 answers', render(response, 'xml').body],
  ['html, 4 answers', render(response, 'html').body],
  ['text, 4 answers (one holds "<")', render(response, 'text').body],
  ['an error page (502, nginx)', page],
  ['an error page holding the code split by <b></b>', page.replace('Bad Gateway</h1>', `Bad Gateway ${CODE.slice(0, 9)}<b></b>${CODE.slice(9)}</h1>`)],
];

/** The best of seven timed rounds, in ns per call. */
function time(rounds: number, work: () => void): number {
  for (let i = 0; i < rounds / 10; i++) work();
  let best = Infinity;
  for (let r = 0; r < 7; r++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < rounds / 7; i++) work();
    best = Math.min(best, Number(process.hrtime.bigint() - started) / (rounds / 7));
  }
  return best;
}

const ROUNDS = 20_000;
const results = new Map<string, number[]>();
for (let pass = 0; pass < 2; pass++) {
  for (const [name, { Secrets }] of builds) {
    const secrets = new Secrets([{ kind: 'agent code', value: CODE }]);
    for (const [label, body] of BODIES) {
      const key = `${label}\t${name}`;
      const ns = time(ROUNDS, () => void secrets.holds(body));
      results.set(key, [...(results.get(key) ?? []), ns]);
    }
  }
}
for (const [label, body] of BODIES) {
  const cells = builds.map(([name]) => `${name} ${Math.min(...results.get(`${label}\t${name}`)!).toFixed(0).padStart(6)} ns`);
  const ratio = builds.length === 2 ? `  now/before ${(Math.min(...results.get(`${label}\tnow`)!) / Math.min(...results.get(`${label}\tbefore`)!)).toFixed(2)}` : '';
  process.stdout.write(`${label.padEnd(50)} ${String(body.length).padStart(5)} chars  ${cells.join('  ')}${ratio}\n`);
}
