import type { ConversationChange, ConversationComparison, ConversationSide, TurnChange } from '../schema.js';
import { pct, pts } from './format.js';

/** How the two runs' conversations relate: `14 common, 1 added, 0 removed, 0 changed (a turn edited, added or removed)`. */
export const conversationSets = ({ counts: n }: ConversationComparison): string =>
  `${n.common} common, ${n.added} added, ${n.removed} removed, ${n.changed} changed (a turn edited, added or removed)`;

/** `1 broken (0 by an error), 1 broke, but quarantined, 2 fixed`. */
export const brokenFixed = ({ counts: n }: ConversationComparison): string =>
  `${n.broken} broken${n.brokenByError > 0 ? ` (${n.brokenByError} by an error, not a regression)` : ''}${n.quarantined > 0 ? `, ${n.quarantined} broke, but quarantined` : ''}, ${n.fixed} fixed`;

/** `pass rate 80.0% -> 73.3% (−6.7 pts)` over the common conversations. */
export const passRateText = ({ passRate: r }: ConversationComparison, arrow = '->'): string =>
  `pass rate ${pct(r.base)} ${arrow} ${pct(r.head)} (${pts(r.delta)})`;

/** A side's ending: `passed`, `failed at turn 3`, `error at turn 2`. */
export const sideText = (s: ConversationSide): string => (s.at === null ? s.verdict : `${s.verdict} at turn ${s.at}`);

/** The turn that changed: `turn 3 (correct -> wrong)`. */
export const turnText = (t: TurnChange, arrow = '->'): string => `turn ${t.turn} (${t.base} ${arrow} ${t.head})`;

/** The few console lines of a comparison with conversations: the sets, broken and fixed, and the first broken ones. */
export function conversationConsoleLines(c: ConversationComparison, limit = 10): string[] {
  const lines = [`  conversations: ${conversationSets(c)}; ${brokenFixed(c)}; ${passRateText(c)}`];
  const line = (what: string, b: ConversationChange) =>
    `  ${what}: ${b.id} at ${turnText(b.turn)}${b.turn.reason === null ? '' : `: ${b.turn.reason}`}`;
  for (const b of c.broken.slice(0, limit)) lines.push(line('broken conversation', b));
  if (c.counts.broken > limit) lines.push(`  ... and ${c.counts.broken - limit} more broken conversations (see compare.html)`);
  for (const b of c.quarantined.slice(0, limit)) lines.push(line('conversation broke, but quarantined', b));
  if (c.counts.quarantined > limit) lines.push(`  ... and ${c.counts.quarantined - limit} more conversations that broke, but are quarantined (see compare.html)`);
  for (const b of c.fixed.slice(0, limit)) lines.push(line('fixed conversation', b));
  if (c.counts.fixed > limit) lines.push(`  ... and ${c.counts.fixed - limit} more fixed conversations (see compare.html)`);
  return lines;
}
