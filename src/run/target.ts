import { createHash } from 'node:crypto';
import { answerEndpoint, ANSWER_PATH, basicAuth, redactTyped, redactUrl, serviceBase } from '../client/url.js';
import { readFailure } from '../dataset/source.js';
import { DEFAULT_FLOOR_THRESHOLD, DEFAULT_SUGGESTION_THRESHOLD, parseKnowledgeBase, SAMPLE_KB, startEngine, type KnowledgeBase } from '../engine/index.js';
import { readKbBytes } from '../engine/kb.js';
import { ConfigError } from '../errors.js';
import type { EngineIdentity } from '../model/report.js';

/** Where a run sends its questions, and how to let go of it afterwards. */
export interface Target {
  baseUrl: string;
  /** The knowledge base to score against: the embedded engine's, loaded (the engine and the run share one read), or the path of --kb beside a remote service. */
  knowledgeBase?: KnowledgeBase | string;
  agent: string;
  agentCode: string;
  embedded: boolean;
  /**
   * The embedded engine's identity: its knowledge base (path and sha256) and options. The journal and the report
   * record it instead of the engine's ephemeral URL, so a resumed or sharded run can be matched with it.
   */
  engine?: EngineIdentity;
  /** What to tell the user once, on stderr (e.g. a base URL given with the endpoint's path). */
  notes: string[];
  close(): Promise<void>;
}

export interface TargetOptions {
  baseUrl?: string;
  agent?: string;
  agentCode?: string;
  /** Knowledge base of the embedded engine (with a base URL it is not served: the run is scored against it). @default the sample knowledge base */
  kb?: string;
  /** The embedded engine's floor threshold (0-100). @default DEFAULT_FLOOR_THRESHOLD */
  floor?: number;
  /** The embedded engine's suggestion threshold (0-100). @default DEFAULT_SUGGESTION_THRESHOLD */
  suggestionThreshold?: number;
  /**
   * Resuming an embedded run: the identity its journal recorded. Unset options default to it, and its knowledge
   * base must not have changed since.
   */
  resumes?: EngineIdentity;
}

/**
 * Checks a `--base-url` as typed. A URL that already ends in the operation's path (`/api/v1/answer`) or the API's
 * (`/api/v1`) stands for what precedes it (src/client/url.ts serviceBase), and a note says so. A query string is kept on the endpoint;
 * a `user:password@` is sent as HTTP Basic auth, and a note says so. Neither is ever shown (see redactUrl).
 */
export function checkBaseUrl(text: string): { baseUrl: string; notes: string[] } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ConfigError(`--base-url "${redactTyped(text)}" is not a URL (expected e.g. https://service.example)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`--base-url "${redactUrl(url)}" is not an http:// or https:// URL (expected e.g. https://service.example)`);
  }
  const notes = credentialsNote(url);
  const { base, endsIn } = serviceBase(url);
  if (endsIn === undefined) return { baseUrl: text, notes };
  const note = endsIn === ANSWER_PATH
    ? `--base-url already ends in ${ANSWER_PATH}: using ${redactUrl(text)} as the endpoint, as is`
    : `--base-url ends in ${endsIn}: asking ${redactUrl(answerEndpoint(text))}`;
  base.pathname = base.pathname.replace(/\/$/, '') || '/';
  return { baseUrl: base.toString(), notes: [note, ...notes] };
}

/** The note for a URL's `user:password@` (sent as Basic auth, as curl does); a ConfigError when they cannot be decoded. */
function credentialsNote(url: URL): string[] {
  try {
    if (basicAuth(url) === undefined) return [];
  } catch {
    throw new ConfigError(`--base-url "${redactUrl(url)}": its user name or password is not valid percent-encoding (write a % in them as %25)`);
  }
  return ['--base-url holds a user name and password: they are sent as HTTP Basic auth (an Authorization header), and never shown'];
}

// --kb is not among them: beside a remote service it names the knowledge base the run is scored against
const EMBEDDED_ONLY = [
  ['floor', '--floor'],
  ['suggestionThreshold', '--suggestion-threshold'],
] as const;

/**
 * A remote service when a base URL is given (then agent and code are required); otherwise the embedded
 * reference engine, started in-process on an ephemeral loopback port with a one-off code.
 */
export async function openTarget(o: TargetOptions): Promise<Target> {
  if (o.baseUrl !== undefined) {
    for (const [key, flag] of EMBEDDED_ONLY) {
      if (o[key] !== undefined) throw new ConfigError(`${flag} is an option of the embedded engine; it cannot be used with --base-url`);
    }
    const { baseUrl, notes } = checkBaseUrl(o.baseUrl);
    if (o.agent === undefined) throw new ConfigError('--agent is required with --base-url (the agent id, wikiagent)');
    if (o.agentCode === undefined) throw new ConfigError('no agent code: set ANSWER_AGENT_CODE or --agent-code-file FILE');
    return { baseUrl, agent: o.agent, agentCode: o.agentCode, embedded: false, ...(o.kb !== undefined ? { knowledgeBase: o.kb } : {}), notes, close: async () => {} };
  }
  const { engine, kb } = await engineIdentity(o);
  const running = await startEngine({
    kb,
    agent: o.agent ?? 'demo',
    floorThreshold: engine.floorThreshold,
    suggestionThreshold: engine.suggestionThreshold,
  });
  return { baseUrl: running.url, agent: running.agent, agentCode: running.code, embedded: true, engine, knowledgeBase: kb, notes: [], close: () => running.close() };
}

/**
 * The identity of the embedded engine a run starts (the knowledge base's sha256 read now, the options given or
 * resumed) and its knowledge base, hashed and parsed from one read of the file (a pipe can be read only once).
 */
async function engineIdentity(o: TargetOptions): Promise<{ engine: EngineIdentity; kb: KnowledgeBase }> {
  const path = o.kb ?? o.resumes?.kb.path ?? SAMPLE_KB;
  // a missing file reads `kb.jsonl:0: no such file`, as a missing dataset does
  const bytes = await readKbBytes(path, (error) => readFailure(error, path));
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const was = o.resumes?.kb;
  if (was !== undefined && was.sha256 !== sha256) {
    throw new ConfigError(
      `cannot resume: the knowledge base changed since the run started (journal ${was.path} sha256 ${was.sha256}, now ${path} sha256 ${sha256}); ` +
        'restore it, or start the run afresh without --resume',
    );
  }
  const engine: EngineIdentity = {
    kb: { path, sha256 },
    floorThreshold: o.floor ?? o.resumes?.floorThreshold ?? DEFAULT_FLOOR_THRESHOLD,
    suggestionThreshold: o.suggestionThreshold ?? o.resumes?.suggestionThreshold ?? DEFAULT_SUGGESTION_THRESHOLD,
  };
  return { engine, kb: parseKnowledgeBase(bytes.toString('utf8'), path) };
}
