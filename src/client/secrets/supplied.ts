import { basicAuth } from '../url.js';
import { tooShort, type Secret } from './secrets.js';

/** A secret the user supplied, and how a warning names it (never by its value). */
export interface Supplied extends Secret {
  /** e.g. "the agent code", "the password in --base-url". */
  name: string;
}

const PROXY_VARIABLES = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'] as const;

const decoded = (text: string): string => {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
};

/**
 * The secrets a URL carries: its password (or its user name when it has no password: a token written as
 * `https://TOKEN@host`), the Authorization value made from them, and every value of its query string (a bare
 * `?TOKEN` too). A user name beside a password is no secret by itself: it is masked inside the Authorization value.
 */
export function urlSecrets(text: string, where: string): Supplied[] {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return [];
  }
  const out: Supplied[] = [];
  const credential = url.password !== '' ? { kind: 'password' as const, typed: url.password } : url.username !== '' ? { kind: 'user name' as const, typed: url.username } : undefined;
  if (credential) out.push({ kind: credential.kind, value: decoded(credential.typed), typed: [credential.typed], name: `the ${credential.kind} in ${where}` });
  let authorization: string | undefined;
  try {
    authorization = basicAuth(url);
  } catch {
    authorization = undefined; // not valid percent-encoding: checkBaseUrl refuses such a URL
  }
  if (authorization !== undefined) out.push({ kind: 'credentials', value: authorization.slice('Basic '.length), name: `the Authorization header made from ${where}` });
  for (const pair of url.search.slice(1).split('&')) {
    const typed = pair.includes('=') ? pair.slice(pair.indexOf('=') + 1) : pair;
    if (typed === '') continue;
    out.push({ kind: 'query value', value: decoded(typed.replace(/\+/g, ' ')), typed: [typed], name: `a query value in ${where}` });
  }
  return out;
}

/**
 * Every secret a run is given: the agent code, what --base-url carries (see urlSecrets), and the credentials of a
 * proxy from the environment (sent to it as Proxy-Authorization, which a proxy may echo back too).
 */
export function suppliedSecrets(o: { agentCode: string; baseUrl: string; env?: NodeJS.ProcessEnv }): Supplied[] {
  const env = o.env ?? process.env;
  const proxies = PROXY_VARIABLES.flatMap((name) => (env[name] ? urlSecrets(env[name], name).filter((s) => s.kind !== 'query value') : []));
  return [{ kind: 'agent code', value: o.agentCode, name: 'the agent code' }, ...urlSecrets(o.baseUrl, '--base-url'), ...proxies];
}

/**
 * The warnings for secrets too short to be masked, one per kind of secret (several query values of a URL make one):
 * said before the run asks anything, never quoting a secret.
 */
export function tooShortWarnings(secrets: readonly Supplied[]): string[] {
  const counts = new Map<string, number>();
  for (const s of secrets) if (tooShort(s.value)) counts.set(s.name, (counts.get(s.name) ?? 0) + 1);
  return [...counts].map(([name, n]) => {
    const subject = n === 1 ? `${name} has fewer than 4 characters` : `${n} query values in ${name.replace(/^a query value in /, '')} have fewer than 4 characters`;
    const it = n === 1 ? 'it is' : 'they are';
    return `${subject}: too short to be masked, ${it} written as is wherever the service echoes ${n === 1 ? 'it' : 'them'} back (a secret this short is guessed in a few thousand tries)`;
  });
}
