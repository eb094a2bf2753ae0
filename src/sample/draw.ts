import { mulberry32 } from '../util/random.js';

/** The questions to draw from, most asked first (ties: the first asked first): what each was asked and its stratum. */
export interface DrawInput {
  /** How many times each was asked, in that order. */
  asked: ArrayLike<number>;
  /** Each one's stratum (an index into `strata`), when stratified. */
  stratum?: ArrayLike<number>;
  /** The strata's names, when stratified. */
  strata?: readonly string[];
}

export interface StratumDraw {
  name: string;
  /** Questions (folded groups) in it, and how many times they were asked in all. */
  groups: number;
  asked: number;
  drawn: number;
}

export interface Draw {
  /** The positions drawn (in DrawInput's order), ascending: most asked first. */
  chosen: number[];
  /** How many were drawn as the most asked, and uniformly from the rest. */
  head: number;
  tail: number;
  strata?: StratumDraw[];
}

/**
 * Draws `size` questions, reproducibly from `seed`: the most asked half (rounded up), then the other half uniformly
 * from the rest (the long tail: a question asked once is as likely as one asked 50 times). Stratified, each stratum
 * gets a share of `size` in proportion to how many times its questions were asked (largest remainders, a stratum
 * never more than it holds), and is drawn the same way. Fewer questions than `size`: all of them. Pure.
 */
export function drawSample(input: DrawInput, size: number, seed: number): Draw {
  const n = input.asked.length;
  const random = mulberry32(seed);
  if (input.stratum === undefined || input.strata === undefined) {
    const { chosen, head } = headAndTail(Array.from({ length: n }, (_, i) => i), size, random);
    return { chosen, head, tail: chosen.length - head };
  }
  const members: number[][] = input.strata.map(() => []);
  const weights = input.strata.map(() => 0);
  for (let i = 0; i < n; i++) {
    members[input.stratum[i]!]!.push(i);
    weights[input.stratum[i]!]! += input.asked[i]!;
  }
  const quotas = allocate(weights, members.map((m) => m.length), Math.min(size, n));
  const chosen: number[] = [];
  let head = 0;
  const strata: StratumDraw[] = [];
  // in the order of the strata's names, so that the draw depends on nothing else
  const byName = input.strata.map((name, s) => ({ name, s })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { name, s } of byName) {
    const drawn = headAndTail(members[s]!, quotas[s]!, random);
    chosen.push(...drawn.chosen);
    head += drawn.head;
    strata.push({ name, groups: members[s]!.length, asked: weights[s]!, drawn: drawn.chosen.length });
  }
  chosen.sort((a, b) => a - b);
  return { chosen, head, tail: chosen.length - head, strata };
}

/** The first ⌈size/2⌉ of `members` (most asked first), and the rest of `size` uniformly from the others. */
function headAndTail(members: readonly number[], size: number, random: () => number): { chosen: number[]; head: number } {
  if (members.length <= size) return { chosen: [...members], head: members.length };
  const head = Math.ceil(size / 2);
  const rest = members.slice(head);
  // a partial Fisher-Yates shuffle: the first `size - head` places of `rest` are a uniform draw
  for (let i = 0; i < size - head; i++) {
    const j = i + Math.floor(random() * (rest.length - i));
    [rest[i], rest[j]] = [rest[j]!, rest[i]!];
  }
  return { chosen: [...members.slice(0, head), ...rest.slice(0, size - head)].sort((a, b) => a - b), head };
}

/**
 * `size` shared out in proportion to `weights` (Hamilton's largest remainders; ties to the first), none more than
 * its `room`: what a full one cannot take goes to the others, in proportion again.
 */
export function allocate(weights: readonly number[], room: readonly number[], size: number): number[] {
  const quotas = weights.map(() => 0);
  let left = Math.min(size, room.reduce((a, b) => a + b, 0));
  while (left > 0) {
    const open = weights.map((_, s) => s).filter((s) => quotas[s]! < room[s]!);
    const total = open.reduce((sum, s) => sum + weights[s]!, 0);
    // strata asked nothing (weights 0) share equally once the others are full
    const share = (s: number): number => (total > 0 ? (left * weights[s]!) / total : left / open.length);
    const given = open.map((s) => ({ s, whole: Math.floor(share(s)), rest: share(s) - Math.floor(share(s)) }));
    let handed = given.reduce((sum, g) => sum + g.whole, 0);
    for (const g of [...given].sort((a, b) => b.rest - a.rest || a.s - b.s)) {
      if (handed >= left) break;
      g.whole++;
      handed++;
    }
    for (const g of given) {
      const take = Math.min(g.whole, room[g.s]! - quotas[g.s]!);
      quotas[g.s]! += take;
      left -= take;
    }
  }
  return quotas;
}
