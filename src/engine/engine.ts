import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { checkFaults, createFaultPlanner, type FaultOptions } from './faults.js';
import { loadKnowledgeBase, type KnowledgeBase } from './kb.js';
import { createRetriever } from './retrieval.js';
import { createFollowUps } from './dialogue.js';
import { createSessions, type SessionOptions } from './session.js';
import { createEngineServer, emptyStats, type EngineStats } from './server.js';

/** Default floor: below this score the reply is the floor answer. Chosen on the sample set and CLINC150 val (docs/engine.md). */
export const DEFAULT_FLOOR_THRESHOLD = 50;
/** Default suggestion threshold: runner-ups at or above it are returned as suggestions. */
export const DEFAULT_SUGGESTION_THRESHOLD = 50;
/** Default follow-up threshold: inside a dialogue, a follow-up scoring below it is not understood. */
export const DEFAULT_FOLLOW_UP_THRESHOLD = 45;

export interface EngineOptions {
  /** A loaded knowledge base, or the path of a `.jsonl` / `.csv` one. */
  kb: KnowledgeBase | string;
  /** @default '127.0.0.1' */
  host?: string;
  /** @default 0 (an ephemeral port) */
  port?: number;
  /** The agent id (`wikiagent`). @default 'demo' */
  agent?: string;
  /** The agent's secret code (`wikiclone_code` header). @default a random code */
  code?: string;
  /** Injected faults; none by default. */
  faults?: FaultOptions;
  /** Seed of the fault decisions. @default 1 */
  seed?: number;
  /** @default DEFAULT_FLOOR_THRESHOLD */
  floorThreshold?: number;
  /** @default DEFAULT_SUGGESTION_THRESHOLD */
  suggestionThreshold?: number;
  /** Inside a dialogue, a follow-up must score at least this to be the reply (docs/engine.md#dialogues). @default DEFAULT_FOLLOW_UP_THRESHOLD */
  followUpThreshold?: number;
  /** Bounds of the per-user sessions (open dialogues, the repeat check) and their clock. @default 30 min idle, 10,000 users, 50 questions each */
  sessions?: SessionOptions;
}

export interface RunningEngine {
  /** Base URL, e.g. http://127.0.0.1:PORT; the operation is POST `${url}/api/v1/answer`. */
  url: string;
  agent: string;
  code: string;
  /**
   * Counters since start: answer requests (POSTs to the answer path) and the faults injected, by kind.
   * A snapshot: later requests do not change it.
   */
  stats(): EngineStats;
  /** Stops listening and closes every connection, idle keep-alive ones included. */
  close(): Promise<void>;
}

/** Starts the reference Answer Service on loopback (by default) and resolves once it listens. */
export async function startEngine(options: EngineOptions): Promise<RunningEngine> {
  const kb = typeof options.kb === 'string' ? await loadKnowledgeBase(options.kb) : options.kb;
  const faults = options.faults ?? {};
  checkFaults(faults);
  const retriever = createRetriever(kb);
  const agent = options.agent ?? 'demo';
  const code = options.code ?? randomBytes(12).toString('base64url');
  const stats = emptyStats();
  const server = createEngineServer({
    retriever,
    followUps: createFollowUps(kb, options.followUpThreshold ?? DEFAULT_FOLLOW_UP_THRESHOLD),
    sessions: createSessions(options.sessions),
    agent,
    code,
    thresholds: {
      floor: options.floorThreshold ?? DEFAULT_FLOOR_THRESHOLD,
      suggestion: options.suggestionThreshold ?? DEFAULT_SUGGESTION_THRESHOLD,
      maxSuggestions: 2,
    },
    planFaults: createFaultPlanner(faults, options.seed ?? 1),
    stats,
  });
  const host = options.host ?? '127.0.0.1';
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    agent,
    code,
    stats: () => ({ requests: stats.requests, faults: { ...stats.faults } }),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
