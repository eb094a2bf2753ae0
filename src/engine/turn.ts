import type { FollowUps } from './dialogue.js';
import { buildAnswers, followUpAnswer, topEntry, type AnswerResponse, type Thresholds } from './respond.js';
import type { Ranked } from './retrieval.js';
import { repeatMessage, type Session, type Sessions } from './session.js';

export interface TurnConfig {
  followUps: FollowUps;
  sessions: Sessions;
  thresholds: Thresholds;
}

/**
 * One question of a user, given how to rank it by the normal retrieval (`rank`, called once, and only when no
 * follow-up answers): the reply, with the user's session moved on (no session: a guest, who has no dialogue and no
 * repeat check). See docs/engine.md#dialogues.
 *
 * - A dialogue is open: the follow-ups of its step are tried first. One scoring at least the follow-up threshold
 *   is the reply (`is_dialogue_answer`); the dialogue goes on at it when it has follow-ups of its own, else closes.
 *   A reply to the engine's own question is not a question: it is not checked or remembered as a repeat.
 * - Otherwise (no dialogue, or no follow-up understood, which closes it): the normal answers. A top entry with
 *   follow-ups opens a dialogue at it; a question the user already asked gets `post_processed_answer`.
 */
export function takeTurn(session: Session | undefined, question: string, language: string, rank: () => Ranked[], c: TurnConfig): AnswerResponse {
  const step = session?.step === undefined ? undefined : c.followUps.entry(session.step);
  const followUp = step && c.followUps.match(step, question);
  if (session && followUp) {
    const goesOn = followUp.entry.followUps.length > 0;
    session.step = goesOn ? followUp.entry.sequenceNumber : undefined;
    return { answers: followUpAnswer(followUp, language, goesOn) };
  }
  const ranked = rank();
  const top = topEntry(ranked, c.thresholds);
  const opens = session !== undefined && top !== undefined && top.followUps.length > 0;
  if (session) session.step = opens ? top?.sequenceNumber : undefined;
  const answers = buildAnswers(ranked, language, c.thresholds, { inProgress: opens, dialogueAnswer: false });
  const repeated = session !== undefined && c.sessions.seen(session, question);
  return { ...(repeated && { post_processed_answer: repeatMessage(language) }), answers };
}
