import type { Quarantine } from '../model/quarantine.js';
import type { QuestionResult, Summary } from '../model/report.js';
import type { EntryIndex } from '../score/metrics/entries.js';
import { Tally } from '../score/tally.js';
import { pairCategory } from './category.js';
import type { ChangeSink } from './changes.js';
import { change, classifyPair, coverage, edited, errorChange, questionEdits, type Pair } from './classify.js';
import { ConversationPairs } from './conversations.js';
import { DriftCounter, driftEntryKey } from './drift.js';
import { isJudgedPair, PairedCounts, SliceCounts } from './paired.js';
import type { ChangeClass, ChangeLine, Comparison, QuarantineRef } from './schema.js';
import type { Standings } from './standings.js';

/**
 * What a comparison keeps while it meets the questions, one at a time: counts, the first `listLimit` questions of
 * each class (every one goes to the sink), the paired statistics as counts, the score drift by group, the two
 * sides' tallies of the common questions, and the conversations paired as their turns come. Memory grows with entries, categories, tags and drifting questions (8
 * bytes each), not with the questions. A broken question in the quarantine is listed as `quarantined` instead; the
 * paired statistics count it as broken (they describe the change). With `standings`, HEAD's failures get theirs.
 */
export class Collector {
  readonly counts: Comparison['counts'] = { common: 0, added: 0, removed: 0, changed: 0, paired: 0, broken: 0, quarantined: 0, fixed: 0, top1Changed: 0, drift: 0, errors: 0 };
  readonly questions: Comparison['questions'] = { broken: [], quarantined: [], fixed: [], top1Changed: [], drift: [], added: [], removed: [], changed: [], errors: [] };
  readonly paired = new PairedCounts();
  readonly tags = new SliceCounts('tag');
  readonly categories = new SliceCounts('category');
  readonly drift = new DriftCounter();
  /** The conversations, paired as their turns are met. */
  readonly conversations: ConversationPairs;
  private readonly tallies = { base: new Tally(), head: new Tally() };
  /** The quarantine's ids met in either run (a question's, a turn's or a conversation's). */
  private readonly met = new Set<string>();

  constructor(
    private readonly entries: EntryIndex,
    private readonly sink: ChangeSink,
    private readonly o: { listLimit: number; scoreEpsilon: number; quarantine?: Quarantine | undefined; standings?: Standings | undefined },
  ) {
    this.conversations = new ConversationPairs(sink, o.listLimit, { quarantine: o.quarantine, standings: o.standings });
  }

  /** A question only in BASE. */
  removed(r: QuestionResult): void {
    this.meet(r);
    this.conversations.base(r, undefined, false);
    this.list('removed', coverage(r, this.entries.categoryOf(r)));
  }

  /** A question only in HEAD. */
  added(r: QuestionResult): void {
    this.meet(r);
    this.o.standings?.noteQuestion(r, 'new');
    this.conversations.headOnly(r);
    this.list('added', coverage(r, this.entries.categoryOf(r)));
  }

  /** The same id on both sides: compared when it is the same question, else listed as changed. */
  matched(pair: Pair): void {
    const edits = questionEdits(pair.base, pair.head);
    this.meet(pair.base);
    this.meet(pair.head);
    this.conversations.base(pair.base, pair.head, edits.length > 0);
    if (edits.length > 0) {
      this.o.standings?.noteQuestion(pair.head, 'edited');
      this.list('changed', edited(pair, edits, this.entries.categoryOf(pair.head)));
      return;
    }
    this.counts.common++;
    this.tallies.base.add(pair.base);
    this.tallies.head.add(pair.head);
    const category = pairCategory(this.entries, pair.base, pair.head);
    const { cls, drift } = classifyPair(pair, this.o.scoreEpsilon);
    const quarantined = cls === 'broken' && this.inQuarantine(pair.base);
    this.o.standings?.noteCommon(pair.base, pair.head, quarantined);
    if (cls === 'errors') this.list('errors', errorChange(pair, category));
    else if (cls !== undefined) this.list(quarantined ? 'quarantined' : cls, change(pair, category));
    if (drift) {
      const moved = change(pair, category);
      this.list('drift', moved);
      this.drift.add(driftEntryKey(moved.head.top1!), moved.head.top1!.answer, category, moved.scoreDelta!);
    }
    if (isJudgedPair(pair.base, pair.head)) {
      this.counts.paired++;
      this.paired.add(pair.base, pair.head);
      this.tags.add(new Set([...pair.base.tags, ...pair.head.tags]), pair.base, pair.head);
      this.categories.add([category], pair.base, pair.head);
    }
  }

  /** The summaries of the common questions, on each side. */
  summaries(): { base: Summary; head: Summary } {
    const { base, head } = this.tallies;
    return { base: base.summary(base.latencyResult()), head: head.summary(head.latencyResult()) };
  }

  /** What compare.json says of the quarantine: its size and the ids in neither run. Undefined without one. */
  quarantine(): QuarantineRef | undefined {
    const q = this.o.quarantine;
    if (q === undefined) return undefined;
    const unknown = [...q.ids.keys()].filter((id) => !this.met.has(id));
    return { file: q.file, ids: q.ids.size, unknown: unknown.slice(0, 100), unknownCount: unknown.length };
  }

  dispose(): void {
    this.tallies.base.dispose();
    this.tallies.head.dispose();
  }

  /** A question is in the quarantine by its id, or, a turn, by its conversation's. */
  private inQuarantine(r: QuestionResult): boolean {
    const ids = this.o.quarantine?.ids;
    return ids !== undefined && (ids.has(r.id) || (r.conversation !== undefined && ids.has(r.conversation.id)));
  }

  /** Notes the quarantine's ids a result answers to: its own, and its conversation's. */
  private meet(r: QuestionResult): void {
    const ids = this.o.quarantine?.ids;
    if (ids === undefined) return;
    if (ids.has(r.id)) this.met.add(r.id);
    const conversation = r.conversation?.id;
    if (conversation !== undefined && ids.has(conversation)) this.met.add(conversation);
  }

  private list<C extends ChangeClass>(cls: C, item: Comparison['questions'][C][number]): void {
    this.counts[cls]++;
    const list = this.questions[cls] as Comparison['questions'][C][number][];
    if (list.length < this.o.listLimit) list.push(item);
    this.sink.add({ class: cls, ...item } as ChangeLine);
  }
}
