import { describe, expect, it } from 'vitest';
import { allowedHosts, allowedOrigins, authority, isLoopback } from '../../src/local-server/hosts.js';

// The names a local server answers to: exactly those it listens on, with its port (no DNS rebinding).

describe('isLoopback', () => {
  it('holds for localhost, ::1 and the addresses of 127.0.0.0/8 only, not for names that start like them', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', '::1', '[::1]', 'localhost', 'LOCALHOST']) expect(isLoopback(host), host).toBe(true);
    for (const host of ['127.evil.example', '127.0.0.1.nip.io', '127.0.0.1.rebind.evil.example', 'localhost.evil.example', '0.0.0.0', '::', '10.0.0.1', 'evil.example', '127.0.0.1.']) {
      expect(isLoopback(host), host).toBe(false);
    }
  });
});

describe('allowedHosts', () => {
  it('bound to loopback: 127.0.0.1, [::1] and localhost, each with the port', () => {
    expect([...allowedHosts('127.0.0.1', 9840)]).toEqual(['127.0.0.1:9840', '[::1]:9840', 'localhost:9840']);
    expect([...allowedHosts('::1', 80)]).toEqual(['127.0.0.1:80', '[::1]:80', 'localhost:80']);
    expect([...allowedHosts('127.0.0.2', 5)]).toEqual(['127.0.0.1:5', '[::1]:5', 'localhost:5', '127.0.0.2:5']);
  });

  it('bound to another host: that name alone; bound to every address: also the machine’s names', () => {
    expect([...allowedHosts('Reports.Example.COM', 8080)]).toEqual(['reports.example.com:8080']);
    expect([...allowedHosts('10.1.2.3', 1)]).toEqual(['10.1.2.3:1']);
    expect([...allowedHosts('0.0.0.0', 7, () => ['box', '10.1.2.3', 'fe80::1'])]).toEqual(['127.0.0.1:7', '[::1]:7', 'localhost:7', '0.0.0.0:7', 'box:7', '10.1.2.3:7', '[fe80::1]:7']);
  });

  it('origins are those hosts over http', () => {
    expect([...allowedOrigins(allowedHosts('localhost', 3))]).toEqual(['http://127.0.0.1:3', 'http://[::1]:3', 'http://localhost:3']);
    expect(authority('::1', 9)).toBe('[::1]:9');
  });
});
