import type { Quarantine } from '../model/quarantine.js';
import { turnId } from '../model/question.js';
import type { QuestionResult } from '../model/report.js';
import type { ChangeSink } from './changes.js';
import type { Standings } from './standings.js';
import type { ChangeLine, ConversationComparison, ConversationLine, ConversationListName, ConversationSide, TurnChange } from './schema.js';

/** A conversation of BASE being read, turn after turn, with what HEAD says of the same turns. */
interface Open {
  id: string;
  question: string;
  tags: string[];
  base: ConversationSide;
  /** HEAD's side, from its first turn matched with one of BASE's; null while none is (absent from HEAD). */
  head: ConversationSide | null;
  editedTurns: number[];
  /** The first turn matched on both sides, unedited, whose outcome differs. */
  turn: TurnChange | null;
}

const sideOf = (r: QuestionResult): ConversationSide => ({ verdict: r.conversation!.verdict, at: r.conversation!.at, turns: r.conversation!.turns });

/** Why a turn did not pass, in words: its reason or its error; null when it passed. */
const why = (r: QuestionResult): string | null => r.reason ?? (r.error ? `${r.error.kind}: ${r.error.message}` : null);

/** Each list of conversations, in the order the reports show them, and the class of its lines in changes.jsonl. */
const LINE_CLASS = {
  broken: 'conversationBroken',
  quarantined: 'conversationQuarantined',
  fixed: 'conversationFixed',
  added: 'conversationAdded',
  removed: 'conversationRemoved',
  changed: 'conversationChanged',
} as const satisfies Record<ConversationListName, ConversationLine['class']>;

export const CONVERSATION_LISTS = Object.keys(LINE_CLASS) as ConversationListName[];
export const conversationLineClass = (name: ConversationListName): ConversationLine['class'] => LINE_CLASS[name];
/** A line of changes.jsonl that lists a conversation, not a question. */
export const isConversationLine = (line: ChangeLine): line is ConversationLine => line.class.startsWith('conversation');

/**
 * Pairs conversations while the comparison meets the questions (BASE in order, each with HEAD's result of the same
 * id; then HEAD's results BASE lacks), by conversation id and turn number (a turn's id is `{conversation}#{turn}`).
 * A conversation's turns are consecutive in a report, so one is open at a time and closed when the next begins:
 * memory is one conversation's summary (never its turns) and the first `listLimit` of each list; every listed
 * conversation goes to the sink. A conversation is common when HEAD has it with the same turns (none edited, none
 * added or removed), like a question; it is then broken (passed in BASE, failed or error in HEAD) or fixed (the
 * reverse), with the first turn whose outcome differs. A broken one in the quarantine (by its id, or the id of the
 * turn that changed) is listed as quarantined instead. HEAD's failed conversations get their standing (`standings`).
 */
export class ConversationPairs {
  readonly counts: ConversationComparison['counts'] = { common: 0, added: 0, removed: 0, changed: 0, broken: 0, brokenByError: 0, fixed: 0, quarantined: 0 };
  readonly lists: Pick<ConversationComparison, ConversationListName> = { broken: [], quarantined: [], fixed: [], added: [], removed: [], changed: [] };
  /** Verdicts of the common conversations, on each side. */
  private readonly tally = { base: { passed: 0, failed: 0 }, head: { passed: 0, failed: 0 } };
  private open: Open | undefined;
  /** Whether either run held a conversation. */
  private seen = false;

  constructor(
    private readonly sink: ChangeSink,
    private readonly listLimit: number,
    private readonly o: { quarantine?: Quarantine | undefined; standings?: Standings | undefined } = {},
  ) {}

  /** A result of BASE, in BASE's order, with HEAD's result of the same id (undefined: none) and whether the question was edited. */
  base(b: QuestionResult, h: QuestionResult | undefined, edited: boolean): void {
    const c = b.conversation;
    const same = c !== undefined && h?.conversation?.id === c.id;
    // HEAD's conversation starts on a result BASE has as something else: it is not in BASE
    if (h?.conversation?.turn === 1 && !same) this.added(h);
    if (this.open && (c === undefined || c.id !== this.open.id || c.turn === 1)) this.close();
    if (c === undefined) return;
    this.seen = true;
    this.open ??= { id: c.id, question: b.question, tags: b.tags, base: sideOf(b), head: null, editedTurns: [], turn: null };
    if (!same) return;
    const open = this.open;
    if (open.head === null) {
      open.head = sideOf(h!);
      open.question = h!.question;
    }
    if (edited) open.editedTurns.push(c.turn);
    else if (open.turn === null && b.outcome !== h!.outcome) open.turn = { turn: c.turn, question: h!.question, base: b.outcome, head: h!.outcome, reason: why(h!) };
  }

  /** A result of HEAD that BASE does not have (they come after BASE's): a conversation's first turn is a conversation only HEAD holds. */
  headOnly(h: QuestionResult): void {
    this.close();
    this.added(h);
  }

  private added(h: QuestionResult): void {
    if (h.conversation === undefined) return;
    this.seen = true;
    if (h.conversation.turn !== 1) return; // a turn added to a conversation BASE has: that conversation is changed
    this.o.standings?.noteConversation(h.conversation.id, h.conversation.verdict, 'new');
    this.list('added', { id: h.conversation.id, question: h.question, tags: h.tags, ...sideOf(h) });
  }

  /** The comparison of the conversations, once every result was met; undefined when neither run holds one. */
  result(): ConversationComparison | undefined {
    this.close();
    if (!this.seen) return undefined;
    const rate = (t: { passed: number; failed: number }) => (t.passed + t.failed === 0 ? null : t.passed / (t.passed + t.failed));
    const [base, head] = [rate(this.tally.base), rate(this.tally.head)];
    return { counts: this.counts, passRate: { base, head, delta: base === null || head === null ? null : head - base }, ...this.lists };
  }

  private close(): void {
    const open = this.open;
    this.open = undefined;
    if (!open) return;
    const { id, question, tags, base, head } = open;
    if (head === null) return this.list('removed', { id, question, tags, ...base });
    if (open.editedTurns.length > 0 || base.turns !== head.turns) {
      this.o.standings?.noteConversation(id, head.verdict, 'edited');
      return this.list('changed', { id, question, tags, base, head, editedTurns: open.editedTurns });
    }
    this.counts.common++;
    for (const [side, v] of [['base', base.verdict], ['head', head.verdict]] as const) if (v !== 'error') this.tally[side][v]++;
    const passed = [base.verdict === 'passed', head.verdict === 'passed'];
    const ids = this.o.quarantine?.ids;
    const quarantined = ids !== undefined && open.turn !== null && (ids.has(id) || ids.has(turnId(id, open.turn.turn)));
    this.o.standings?.noteConversation(id, head.verdict, base.verdict === 'error' ? 'errorBefore' : passed[0] ? (quarantined ? 'quarantined' : 'broken') : 'failingBefore');
    // a verdict decided by its turns' outcomes changed, so some turn's outcome did
    if (passed[0] === passed[1] || open.turn === null) return;
    if (passed[0] && quarantined) return this.list('quarantined', { id, question, tags, base, head, turn: open.turn });
    if (passed[0] && head.verdict === 'error') this.counts.brokenByError++;
    this.list(passed[0] ? 'broken' : 'fixed', { id, question, tags, base, head, turn: open.turn });
  }

  private list<L extends ConversationListName>(name: L, item: ConversationComparison[L][number]): void {
    this.counts[name]++;
    const list = this.lists[name] as ConversationComparison[L][number][];
    if (list.length < this.listLimit) list.push(item);
    this.sink.add({ class: LINE_CLASS[name], ...item } as ChangeLine);
  }
}
