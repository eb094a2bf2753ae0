import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { runEvaluation } from '../../src/run/run.js';
import { item, startSpecServer } from '../helpers/spec-server.js';
import { tempDir, writeTemp } from '../helpers/tmp.js';

/** A forward proxy on loopback that tunnels CONNECT requests and counts them. */
async function startProxy(): Promise<{ url: string; tunnels: string[]; close: () => Promise<void> }> {
  const tunnels: string[] = [];
  const server: Server = createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req, client, head) => {
    tunnels.push(req.url ?? '');
    const [host, port] = (req.url ?? '').split(':');
    const upstream = connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tunnels,
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}

describe('HTTP_PROXY', () => {
  const saved = { HTTP_PROXY: process.env['HTTP_PROXY'], NO_PROXY: process.env['NO_PROXY'] };
  afterAll(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('sends every request through the proxy when one is set, and straight to the service otherwise', async () => {
    const service = await startSpecServer(() => ({ body: { answers: [item(1, 90)] } }));
    const proxy = await startProxy();
    const dataset = writeTemp(tempDir(), 'qs.csv', 'id,question,expected_sequence\na,one,1\nb,two,1\nc,three,1\n');
    try {
      process.env['HTTP_PROXY'] = proxy.url;
      delete process.env['NO_PROXY'];
      const through = await runEvaluation({ dataset, baseUrl: service.url, agent: 'a', agentCode: 'code', concurrency: 1 });
      expect(through.report.summary.outcomes.correct).toBe(3);
      expect(proxy.tunnels.length).toBeGreaterThan(0);
      expect(proxy.tunnels.every((t) => t === new URL(service.url).host)).toBe(true);

      delete process.env['HTTP_PROXY'];
      const before = proxy.tunnels.length;
      const direct = await runEvaluation({ dataset, baseUrl: service.url, agent: 'a', agentCode: 'code', concurrency: 1 });
      expect(direct.report.summary.outcomes.correct).toBe(3);
      expect(proxy.tunnels.length).toBe(before);
    } finally {
      await proxy.close();
      await service.close();
    }
  });
});
