import { createServer, request, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  startEgressProxy,
  type EgressProxy,
} from '../../src/infrastructure/sandbox/egress-proxy.js';
import { tempDir } from '../support/temp-dir.js';

/** Names the tests resolve without DNS: one honest, two rebound onto addresses never allowed. */
const addresses: Record<string, string[]> = {
  'mirror.example.com': ['127.0.0.1'],
  'api.example.com': ['127.0.0.1'],
  'metadata.example.com': ['169.254.169.254'],
};

describe('the egress proxy (host side, over its Unix socket)', () => {
  let upstream: Server;
  let port = 0;
  let proxy: EgressProxy;
  beforeAll(async () => {
    upstream = createServer((req, res) => res.end(`upstream saw ${req.headers.host} ${req.url}`));
    await new Promise<void>((listening) => upstream.listen(0, '127.0.0.1', listening));
    port = (upstream.address() as AddressInfo).port;
    proxy = await startEgressProxy({
      socketPath: join(tempDir('correx-proxy-'), 'proxy.sock'),
      allowlist: ['localhost', 'api.example.com', 'metadata.example.com'],
      resolve: (host) =>
        host === 'localhost'
          ? Promise.resolve(['127.0.0.1'])
          : addresses[host]
            ? Promise.resolve(addresses[host])
            : Promise.reject(new Error('no such name')),
    });
  });
  afterAll(async () => {
    await proxy.close();
    await new Promise<void>((closed) => upstream.close(() => closed()));
  });

  function get(url: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      const req = request(
        {
          socketPath: proxy.socketPath,
          path: url,
          method: 'GET',
          headers: { host: new URL(url).host },
        },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        },
      );
      req.on('error', reject);
      req.end();
    });
  }

  function tunnel(authority: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(proxy.socketPath);
      let seen = '';
      socket.on('data', (chunk) => {
        seen += chunk.toString();
        if (seen.startsWith('HTTP/1.1 200')) {
          if (!seen.includes('upstream saw'))
            socket.write('GET /tunnelled HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n');
        }
      });
      socket.on('end', () => resolve(seen));
      socket.on('error', reject);
      socket.write(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`);
    });
  }

  it('forwards plain HTTP to an allowlisted host, to the address it checked', async () => {
    const response = await get(`http://localhost:${port}/a?b=1`);
    expect(response).toEqual({ status: 200, body: `upstream saw localhost:${port} /a?b=1` });
  });

  it('refuses a host that is not on the allowlist with 403', async () => {
    const response = await get(`http://evil.example.net:${port}/`);
    expect(response.status).toBe(403);
    expect(response.body).toContain('evil.example.net refused: not on the egress allowlist');
  });

  it('refuses an allowlisted name that resolves to loopback or link-local (rebinding)', async () => {
    expect((await get(`http://api.example.com:${port}/`)).body).toContain(
      'resolves to 127.0.0.1, a loopback address',
    );
    expect((await get('http://metadata.example.com/latest/meta-data')).body).toContain(
      'resolves to 169.254.169.254, a reserved or link-local address',
    );
  });

  it('tunnels CONNECT to an allowlisted host and refuses it for others', async () => {
    expect(await tunnel(`localhost:${port}`)).toContain('upstream saw localhost /tunnelled');
    expect(await tunnel('mirror.example.com:443')).toMatch(/^HTTP\/1\.1 403/);
  });

  it('folds identical decisions, in first-seen order', () => {
    const decisions = proxy.decisions();
    expect(decisions.map((d) => [d.host, d.allowed])).toEqual([
      ['localhost', true],
      ['evil.example.net', false],
      ['api.example.com', false],
      ['metadata.example.com', false],
      ['mirror.example.com', false],
    ]);
    expect(decisions[0]).toEqual({
      host: 'localhost',
      port,
      allowed: true,
      reason: 'on the egress allowlist',
      count: 2,
    });
  });
});
