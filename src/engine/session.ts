/** Remembers the questions each username asked lately, to notice repeats. Bounded: an LRU of users. */
export interface RepeatTracker {
  /** Records the question; true when this username asked the same question within the session. */
  seen(username: string, question: string, now: number): boolean;
}

export interface RepeatOptions {
  /** A session ends after this much silence from the user. @default 30 minutes */
  sessionMs?: number;
  /** Users remembered at most (least recently active forgotten first). @default 10_000 */
  maxUsers?: number;
  /** Questions remembered per user. @default 50 */
  maxQuestions?: number;
}

const normalize = (q: string): string => q.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

export function createRepeatTracker(options: RepeatOptions = {}): RepeatTracker {
  const sessionMs = options.sessionMs ?? 30 * 60_000;
  const maxUsers = options.maxUsers ?? 10_000;
  const maxQuestions = options.maxQuestions ?? 50;
  // Map keeps insertion order: re-inserting on each visit makes the first key the least recent.
  const users = new Map<string, { last: number; questions: Set<string> }>();
  return {
    seen(username, question, now) {
      const key = normalize(question);
      let user = users.get(username);
      if (user && now - user.last > sessionMs) user = undefined;
      users.delete(username);
      if (!user) user = { last: now, questions: new Set() };
      user.last = now;
      users.set(username, user);
      if (users.size > maxUsers) users.delete(users.keys().next().value as string);
      if (user.questions.has(key)) return true;
      user.questions.add(key);
      if (user.questions.size > maxQuestions) user.questions.delete(user.questions.values().next().value as string);
      return false;
    },
  };
}

const REPEAT_TEXT: Record<string, string> = {
  en: "ehi! didn't I already answer you on this question?!",
  it: 'ehi! non ti ho già risposto su questa domanda?!',
  de: 'hey! habe ich dir diese Frage nicht schon beantwortet?!',
  fr: "hé ! je n'ai pas déjà répondu à cette question ?!",
  es: '¡eh! ¿no te he respondido ya a esta pregunta?!',
};

export const repeatMessage = (language: string): string => REPEAT_TEXT[language] ?? REPEAT_TEXT.en ?? '';
