// (j) `answer-eval sample` on a log of 1,000,000 questions asked: time and peak RSS of the whole process, and checks
// that it did its job on a log built to test it (seeded): planted near-repeats folded into their question, every
// planted e-mail address and phone number scrubbed (counted exactly, absent from the set), the same seed the same bytes.
import { createWriteStream, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { mulberry32 } from './lib/package.js';
import { runProcess } from './lib/proc.js';
import { CLI } from './paths.js';

export interface SampleResult {
  lines: number;
  logMb: number;
  seconds: number;
  peakRssMb: number;
  distinct: number;
  groups: number;
  /** What was planted and what sample found of it. */
  planted: { canaries: number; variants: number; emails: number; phones: number };
  scrubbed: { emails: number; phones: number };
  /** Each check, true when met. */
  checks: { nearRepeatsFolded: boolean; piiScrubbed: boolean; sameSeedSameBytes: boolean };
}

const VERBS = ['pay', 'change', 'cancel', 'update', 'find', 'download', 'renew', 'report', 'reset', 'check', 'transfer', 'close', 'open', 'track', 'return', 'order', 'book', 'move', 'upgrade', 'add'];
const NOUNS = [
  'bill', 'invoice', 'tariff', 'meter reading', 'password', 'account', 'direct debit', 'contract', 'address', 'parcel', 'order', 'refund', 'appointment', 'subscription', 'card',
  'statement', 'plan', 'deposit', 'delivery', 'voucher', 'loyalty points', 'phone number', 'email address', 'payment method', 'warranty', 'receipt', 'booking', 'profile', 'pin', 'login',
];
const FORMS = ['how do i {v} my {n}', 'how can i {v} my {n} online', 'i want to {v} my {n}', 'where can i {v} my {n}', 'can i {v} my {n} today', 'why cant i {v} my {n}', 'help me {v} my {n}'];
const WORDS = 'able about above account across after again agent alarm almost always amount angry annual answer apply april area around arrive august autumn balance bank basic battery before begin being below better between block branch broken budget button cable call cancel carrier cash change charge cheap check child city claim clear close code colour company complaint confirm contact cost could country coupon credit current customer daily damage data date debit december default delay deliver detail device digital discount double early electric email empty energy error euro evening every extra family february fibre final first fixed flat form free friday full future gas gift good green group guest half happy heating help holiday home hour house install internet invoice issue item january july june kitchen label large last late leave letter limit line link local login long lost main march market maybe member message meter middle minute mobile monday money month morning mother network never night noise normal notice november number october office online order other owner package paper partner password payment people period phone picture place plan please point police power price print problem product profile quick rate reason receive refund region remove renew repair reply report request return right room router saturday saving screen second secure send service settle share shop short signal simple single small smart speed start station status store student sunday supply switch system tariff thursday ticket today total track transfer travel tuesday update urgent usage user value voice wait wallet water website wednesday week weekend window winter wrong year yesterday'.split(' ');

/** A word nobody else uses, for the planted questions (`zorvik`, `quelbar`, ...). */
const invented = (random: () => number): string => Array.from({ length: 7 }, (_, i) => (i % 2 === 0 ? 'bcdfghjklmnprstvz' : 'aeiou')[Math.floor(random() * (i % 2 === 0 ? 17 : 5))]).join('');

/** A typo of a long word of `text`: one letter dropped, doubled or swapped with the next. */
function typo(text: string, k: number): string {
  const words = text.split(' ');
  const w = words.reduce((best, word, i) => (word.length > words[best]!.length ? i : best), 0);
  const word = words[w]!;
  const at = 1 + (k % (word.length - 2));
  const kinds = [word.slice(0, at) + word.slice(at + 1), word.slice(0, at) + word[at] + word.slice(at), word.slice(0, at) + word[at + 1] + word[at] + word.slice(at + 2)];
  words[w] = kinds[Math.floor(k / (word.length - 2)) % 3]!;
  return words.join(' ');
}

interface Planted {
  path: string;
  canaries: { text: string; lines: number; variants: string[] }[];
  emails: number;
  phones: number;
}

/** Draws from `items` with the item of rank r (from 0) weighted 1 / (r + 1)^exponent, as words and questions are asked. */
function zipfPicker<T>(items: readonly T[], exponent: number, random: () => number): () => T {
  const cumulative: number[] = [];
  items.reduce((sum, _, r) => (cumulative[r] = sum + 1 / (r + 1) ** exponent), 0);
  return () => {
    const x = random() * cumulative.at(-1)!;
    let [lo, hi] = [0, cumulative.length - 1];
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid]! < x) lo = mid + 1;
      else hi = mid;
    }
    return items[lo]!;
  };
}

/**
 * A log of `lines` questions asked (timestamp, user, language, question), seeded: half the lines are a few thousand
 * everyday questions asked with a Zipf-like skew and written in several ways (case, `?`, spaces), 40% are asked
 * once (random words, everyday ones and of a larger vocabulary: the long tail), 8% are 20 planted questions with 10 planted near-repeats each (typos), 1%
 * hold an e-mail address and 1% a phone number (international and national forms).
 */
export async function writeLog(dir: string, lines: number, seed: number): Promise<Planted> {
  const random = mulberry32(seed);
  const path = join(dir, `log-${lines}.csv`);
  const out = createWriteStream(path);
  const write = async (text: string): Promise<void> => {
    if (!out.write(text)) await once(out, 'drain');
  };
  const bases = FORMS.flatMap((f) => VERBS.flatMap((v) => NOUNS.map((n) => f.replace('{v}', v).replace('{n}', n))));
  const pick = zipfPicker(bases, 1.1, random);
  const canaries = Array.from({ length: 20 }, () => {
    const text = `how do i renew the ${invented(random)} permit for my ${invented(random)} garden`;
    const variants = [...new Set(Array.from({ length: 12 }, (_, k) => typo(text, k * 4 + 1)))].filter((v) => v !== text).slice(0, 10);
    return { text, lines: 0, variants };
  });
  const surface = (text: string): string => {
    const r = random();
    const cased = r < 0.3 ? text[0]!.toUpperCase() + text.slice(1) : r < 0.35 ? text.toUpperCase() : text;
    return `${cased}${['', '?', '??', ' ?', '.'][Math.floor(random() * 5)]}`;
  };
  // the long tail's words: half everyday ones, half from a vocabulary of 8,000 (names, products, places), skewed as words are
  const vocabulary = Array.from({ length: 8000 }, () => invented(random).slice(0, 4 + Math.floor(random() * 4)));
  const rareWord = zipfPicker(vocabulary, 1, random);
  const tailWord = (): string => (random() < 0.5 ? WORDS[Math.floor(random() * WORDS.length)]! : rareWord());
  let emails = 0;
  let phones = 0;
  await write('timestamp,user,language,question\n');
  const start = Date.UTC(2026, 9, 1);
  for (let i = 0; i < lines; i++) {
    const r = random();
    let question: string;
    if (r < 0.08) {
      const c = canaries[Math.floor(random() * canaries.length)]!;
      c.lines++;
      question = random() < 0.6 ? c.text : c.variants[Math.floor(random() * c.variants.length)]!;
    } else if (r < 0.09) {
      emails++;
      question = `my email is ${invented(random)}.${invented(random)}${Math.floor(random() * 1000)}@example-${invented(random)}.com and i cannot log in`;
    } else if (r < 0.1) {
      phones++;
      const d = (n: number): string => Array.from({ length: n }, () => Math.floor(random() * 10)).join('');
      const forms = [`+44 20 ${d(4)} ${d(4)}`, `020 ${d(4)} ${d(4)}`, `(555) ${d(3)}-${d(4)}`, `+33 6 ${d(2)} ${d(2)} ${d(2)} ${d(2)}`];
      question = `please call me back at ${forms[Math.floor(random() * forms.length)]} about my bill`;
    } else if (r < 0.5) {
      question = Array.from({ length: 5 + Math.floor(random() * 5) }, tailWord).join(' ');
    } else question = surface(pick());
    const time = new Date(start + i * 2600).toISOString();
    await write(`${time},u${Math.floor(random() * 200_000)},en,${question}\n`);
  }
  out.end();
  await once(out, 'finish');
  return { path, canaries, emails, phones };
}

interface Summary {
  distinct: number;
  groups: number;
  pii: { email: number; phone: number };
}

export async function benchSample(tmp: string, lines = 1_000_000): Promise<SampleResult> {
  const log = await writeLog(tmp, lines, 20261128);
  const outs = [join(tmp, 'sample-a.csv'), join(tmp, 'sample-b.csv')];
  const started = performance.now();
  const first = await runProcess(process.execPath, [CLI, 'sample', log.path, '-o', outs[0]!, '-n', '200', '--seed', '5'], { measureRss: true, timeoutMs: 1_800_000 });
  const seconds = (performance.now() - started) / 1000;
  if (first.code !== 0 || first.peakRssMb === undefined) throw new Error(`sample of ${lines} lines failed (${first.code}): ${first.stderr.slice(0, 500)}`);
  const second = await runProcess(process.execPath, [CLI, 'sample', log.path, '-o', outs[1]!, '-n', '200', '--seed', '5'], { timeoutMs: 1_800_000 });
  if (second.code !== 0) throw new Error(`the second sample failed (${second.code}): ${second.stderr.slice(0, 500)}`);

  const set = readFileSync(outs[0]!, 'utf8');
  const summary = JSON.parse(readFileSync(`${outs[0]!}.sample.json`, 'utf8')) as Summary;
  // every planted question is among the most asked: written once, asked as often as it and its typos were
  const rows = set.split('\n').slice(1).filter((l) => l !== '');
  // id,question,language,expected_sequence,expected_label,expect,count,users,source: no question written here has a comma
  const written = new Map(rows.map((l) => l.split(',')).map((cells) => [cells[1]!, Number(cells[6])]));
  const folded = log.canaries.every((c) => written.get(c.text) === c.lines && c.variants.every((v) => !written.has(v)));
  const scrubbed = summary.pii.email === log.emails && summary.pii.phone === log.phones && !set.includes('@') && !/\d{3}[ -]\d{4}/.test(set);
  const same = readFileSync(outs[0]!).equals(readFileSync(outs[1]!));
  const logMb = statSync(log.path).size / 1e6;
  for (const f of outs) for (const file of [f, `${f}.sample.json`]) rmSync(file);
  rmSync(log.path);
  return {
    lines,
    logMb,
    seconds,
    peakRssMb: first.peakRssMb,
    distinct: summary.distinct,
    groups: summary.groups,
    planted: { canaries: log.canaries.length, variants: log.canaries.reduce((n, c) => n + c.variants.length, 0), emails: log.emails, phones: log.phones },
    scrubbed: { emails: summary.pii.email, phones: summary.pii.phone },
    checks: { nearRepeatsFolded: folded, piiScrubbed: scrubbed, sameSeedSameBytes: same },
  };
}
