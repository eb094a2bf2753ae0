import { SAMPLE_KB, startEngine } from '../engine/index.js';
import { ConfigError } from '../errors.js';

/** Where a run sends its questions, and how to let go of it afterwards. */
export interface Target {
  baseUrl: string;
  /** The knowledge base to score against: the embedded engine's, or --kb beside a remote service. */
  knowledgeBase?: string;
  agent: string;
  agentCode: string;
  embedded: boolean;
  close(): Promise<void>;
}

export interface TargetOptions {
  baseUrl?: string;
  agent?: string;
  agentCode?: string;
  /** Knowledge base of the embedded engine (with a base URL it is not served: the run is scored against it). @default the sample knowledge base */
  kb?: string;
}

/**
 * A remote service when a base URL is given (then agent and code are required); otherwise the embedded
 * reference engine, started in-process on an ephemeral loopback port with a one-off code.
 */
export async function openTarget(o: TargetOptions): Promise<Target> {
  if (o.baseUrl !== undefined) {
    if (o.agent === undefined) throw new ConfigError('--agent is required with --base-url (the agent id, wikiagent)');
    if (o.agentCode === undefined) throw new ConfigError('no agent code: set ANSWER_AGENT_CODE or --agent-code-file FILE');
    return { baseUrl: o.baseUrl, agent: o.agent, agentCode: o.agentCode, embedded: false, ...(o.kb !== undefined ? { knowledgeBase: o.kb } : {}), close: async () => {} };
  }
  const engine = await startEngine({ kb: o.kb ?? SAMPLE_KB, agent: o.agent ?? 'demo' });
  return { baseUrl: engine.url, agent: engine.agent, agentCode: engine.code, embedded: true, knowledgeBase: o.kb ?? SAMPLE_KB, close: () => engine.close() };
}
