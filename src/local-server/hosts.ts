import { isIP } from 'node:net';
import { hostname, networkInterfaces } from 'node:os';

/** A host without the brackets of an IPv6 literal, lower case. */
const bare = (host: string): string => host.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1');

/**
 * True for a name or address of this machine only: `localhost`, `::1`, or an IPv4 address of 127.0.0.0/8. A name
 * that merely starts with "127." (`127.evil.example`, `127.0.0.1.nip.io`) is a name like any other.
 */
export function isLoopback(host: string): boolean {
  const h = bare(host);
  return h === 'localhost' || h === '::1' || (isIP(h) === 4 && h.startsWith('127.'));
}

const isWildcard = (host: string): boolean => {
  const h = bare(host);
  return h === '0.0.0.0' || h === '::';
};

/** `host:port` as a Host header writes it: an IPv6 address in brackets, lower case. */
export const authority = (host: string, port: number): string => {
  const h = bare(host);
  return `${isIP(h) === 6 ? `[${h}]` : h}:${port}`;
};

/** The names and addresses of this machine: its host name and every interface address (link-local ones need a zone no Host header carries). */
export function machineNames(): string[] {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((a) => a.address));
  return [hostname(), ...addresses.filter((a) => !a.includes('%'))];
}

const LOOPBACK_NAMES = ['127.0.0.1', '::1', 'localhost'];

/**
 * Every Host header a server listening on `host`:`port` answers to, as `name:port`, lower case: bound to loopback,
 * 127.0.0.1, [::1] and localhost (and the address given); bound to every address (0.0.0.0, ::), those, the address given and this
 * machine's names and addresses; bound to anything else, that name alone. A header without the port, with another
 * port, or naming anything else is no request for this server (a page of another site reaching it by DNS rebinding).
 */
export function allowedHosts(host: string, port: number, machine: () => string[] = machineNames): Set<string> {
  const names = isLoopback(host) ? [...LOOPBACK_NAMES, host] : isWildcard(host) ? [...LOOPBACK_NAMES, host, ...machine()] : [host];
  return new Set(names.map((n) => authority(n, port)));
}

/** The origins of the pages a server answering to `hosts` (allowedHosts) serves: `http://name:port`. */
export const allowedOrigins = (hosts: ReadonlySet<string>): Set<string> => new Set([...hosts].map((h) => `http://${h}`));
