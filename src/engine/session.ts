import { createHash } from 'node:crypto';
import { ConfigError } from '../errors.js';

/** What the engine remembers of one user (agent + username) between questions. */
export interface Session {
  /** Sequence number of the entry whose follow-ups the next question is matched against; none: no dialogue open. */
  step?: number;
  /** 48-bit digests of the questions asked lately (normalized), oldest first: the repeat check. */
  questions: Set<number>;
  /** When the user last asked something (ms, the store's clock). */
  last: number;
}

export interface SessionOptions {
  /** A session (open dialogue, remembered questions) is forgotten after this much silence from its user. @default 30 minutes */
  idleMs?: number;
  /** Users remembered at most; the least recently active is forgotten first. @default 10_000 */
  maxUsers?: number;
  /** Questions remembered per user for the repeat check; the oldest is forgotten first. @default 50 */
  maxQuestions?: number;
  /** The clock, in ms. @default Date.now */
  now?: () => number;
}

export interface Sessions {
  /** The session of this agent's user, marked as the most recent; a new one when there is none or it expired. */
  open(agent: string, username: string): Session;
  /** The session of this agent's user when one is held and not expired, left where it is in the LRU (nothing changes). */
  peek(agent: string, username: string): Session | undefined;
  /** Records a question in the session; true when the user already asked it there (case and punctuation ignored). */
  seen(session: Session, question: string): boolean;
  /** Sessions held now (expired ones are dropped as the store is used). */
  size(): number;
}

export const DEFAULT_SESSION_IDLE_MS = 30 * 60_000;
export const DEFAULT_MAX_USERS = 10_000;
export const DEFAULT_MAX_QUESTIONS = 50;

const normalize = (q: string): string => q.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();

// Usernames and questions can be up to a whole body (64 KiB) long: only fixed-size digests are kept, 128 bits
// for a user, 48 bits (a number: a smaller Set) for a question, where a collision among 50 is about 1 in 10^11.
const userKey = (agent: string, username: string): string =>
  createHash('sha256').update(`${agent}\0${username}`).digest('base64url').slice(0, 22);
const questionKey = (question: string): number =>
  createHash('sha256').update(normalize(question)).digest().readUIntBE(0, 6);

function positive(name: string, value: number, whole: boolean): number {
  if (!(value > 0) || (whole && !Number.isInteger(value))) {
    throw new ConfigError(`sessions.${name} ${value}: expected a ${whole ? 'whole number' : 'number'} above 0`);
  }
  return value;
}

/**
 * An LRU of user sessions, bounded in number, each bounded in questions and forgotten after `idleMs` of silence.
 * Throws a ConfigError on a bound that is not above 0.
 */
export function createSessions(options: SessionOptions = {}): Sessions {
  const idleMs = positive('idleMs', options.idleMs ?? DEFAULT_SESSION_IDLE_MS, false);
  const maxUsers = positive('maxUsers', options.maxUsers ?? DEFAULT_MAX_USERS, true);
  const maxQuestions = positive('maxQuestions', options.maxQuestions ?? DEFAULT_MAX_QUESTIONS, true);
  const now = options.now ?? Date.now;
  // Map keeps insertion order and each visit re-inserts: the first key is the least recently active.
  const users = new Map<string, Session>();
  return {
    open(agent, username) {
      const t = now();
      for (const [key, oldest] of users) {
        if (t - oldest.last <= idleMs) break;
        users.delete(key);
      }
      const key = userKey(agent, username);
      const held = users.get(key);
      const session = held && t - held.last <= idleMs ? held : { questions: new Set<number>(), last: t };
      session.last = t;
      users.delete(key);
      users.set(key, session);
      if (users.size > maxUsers) users.delete(users.keys().next().value as string);
      return session;
    },
    peek(agent, username) {
      const held = users.get(userKey(agent, username));
      return held && now() - held.last <= idleMs ? held : undefined;
    },
    seen(session, question) {
      const key = questionKey(question);
      if (session.questions.has(key)) return true;
      session.questions.add(key);
      if (session.questions.size > maxQuestions) session.questions.delete(session.questions.values().next().value as number);
      return false;
    },
    size: () => users.size,
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
