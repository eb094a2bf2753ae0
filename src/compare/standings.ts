import { isCorrect, OUTCOME_CLASSES } from '../model/outcome.js';
import type { ConversationVerdict, QuestionResult } from '../model/report.js';
import { STANDINGS, type BaselineStandings, type Standing } from '../model/standing.js';

/**
 * The standings a comparison finds, kept for HEAD's failures only (a single question whose outcome is failing, a
 * conversation that failed), so memory grows with the failures: what junit.xml needs to report regressions.
 */
export class Standings implements BaselineStandings {
  private readonly questions = new Map<string, Standing>();
  private readonly conversations = new Map<string, Standing>();
  private skips = 0;

  constructor(readonly file: string) {}

  get skipped(): number {
    return this.skips;
  }

  question(id: string): Standing | undefined {
    return this.questions.get(id);
  }

  conversation(id: string): Standing | undefined {
    return this.conversations.get(id);
  }

  /** HEAD's result of a question (a conversation's turns are judged with their conversation). */
  noteQuestion(head: QuestionResult, standing: Standing): void {
    if (head.conversation === undefined && OUTCOME_CLASSES[head.outcome].failing) this.set(this.questions, head.id, standing);
  }

  /** A common question of HEAD: broken (or quarantined), failing before, or not judged before. */
  noteCommon(base: QuestionResult, head: QuestionResult, quarantined: boolean): void {
    this.noteQuestion(head, base.outcome === 'error' ? 'errorBefore' : isCorrect(base.outcome) ? (quarantined ? 'quarantined' : 'broken') : 'failingBefore');
  }

  /** A conversation of HEAD, with how it ended there. */
  noteConversation(id: string, head: ConversationVerdict, standing: Standing): void {
    if (head === 'failed') this.set(this.conversations, id, standing);
  }

  private set(map: Map<string, Standing>, id: string, standing: Standing): void {
    if (map.has(id)) return;
    map.set(id, standing);
    if (!STANDINGS[standing].fails) this.skips++;
  }
}
