import { mkdirSync, symlinkSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  TOKEN_SUBPROTOCOL_PREFIX,
  WIRE_SUBPROTOCOL,
} from '../../src/interfaces/server/request-guard.js';
import { tempDir } from '../support/temp-dir.js';
import {
  api,
  closeAfterEach,
  connect,
  isType,
  rawRequest,
  refusedUpgrade,
  startTestServer,
  TOKEN,
} from './support/server-fixture.js';

closeAfterEach();

describe('the server refuses who it should', () => {
  it('refuses REST calls without a token or with a wrong one, and accepts the right one', async () => {
    const { address } = await startTestServer();
    const none = await rawRequest(address, { path: '/api/sessions' });
    expect(none).toMatchObject({ status: 401, body: { error: { code: 'unauthorized' } } });
    const wrong = await api(address, `${TOKEN}x`).get('/api/sessions');
    expect(wrong.status).toBe(401);
    const basic = await rawRequest(address, {
      path: '/api/sessions',
      headers: { authorization: `Basic ${TOKEN}` },
    });
    expect(basic.status).toBe(401);
    // Refused before routing: an unknown path says nothing about what exists.
    expect((await rawRequest(address, { path: '/api/nope' })).status).toBe(401);
    expect(await api(address).get('/api/sessions')).toEqual({
      status: 200,
      body: { sessions: [] },
    });
  });

  it('refuses WebSocket upgrades without a token or with a wrong one; accepts it as a subprotocol', async () => {
    const { address } = await startTestServer();
    expect(await refusedUpgrade(address, { token: null })).toBe(401);
    expect(await refusedUpgrade(address, { token: 'wrong-token-wrong-token-wrong-token' })).toBe(
      401,
    );
    const browser = await connect(address, {
      token: null,
      protocols: [WIRE_SUBPROTOCOL, `${TOKEN_SUBPROTOCOL_PREFIX}${TOKEN}`],
    });
    expect(browser.socket.protocol).toBe(WIRE_SUBPROTOCOL);
    browser.send({ type: 'ping', requestId: 'p' });
    expect(await browser.next(isType('pong'))).toEqual({ type: 'pong', requestId: 'p' });
  });

  it('refuses other Host names (DNS rebinding) and other Origins (cross-site), for REST and WebSocket', async () => {
    const { address } = await startTestServer();
    const headers = { authorization: `Bearer ${TOKEN}` };
    const rebound = await rawRequest(address, {
      path: '/api/sessions',
      headers: { ...headers, host: `evil.example:${address.port}` },
    });
    expect(rebound).toMatchObject({ status: 403, body: { error: { code: 'forbidden_host' } } });
    const crossSite = await rawRequest(address, {
      path: '/api/sessions',
      headers: { ...headers, origin: 'http://evil.example' },
    });
    expect(crossSite).toMatchObject({ status: 403, body: { error: { code: 'forbidden_origin' } } });
    const otherPort = await rawRequest(address, {
      path: '/api/sessions',
      headers: { ...headers, origin: `http://127.0.0.1:${address.port + 1}` },
    });
    expect(otherPort.status).toBe(403);
    for (const host of ['localhost', '127.0.0.1', '[::1]']) {
      const own = await rawRequest(address, {
        path: '/api/sessions',
        headers: {
          ...headers,
          host: `${host}:${address.port}`,
          origin: `http://${host}:${address.port}`,
        },
      });
      expect(own.status, host).toBe(200);
    }
    expect(await refusedUpgrade(address, { headers: { origin: 'http://evil.example' } })).toBe(403);
    expect(
      await refusedUpgrade(address, { headers: { host: `evil.example:${address.port}` } }),
    ).toBe(403);
  });

  it('limits request bodies and refuses malformed ones with an error body', async () => {
    const { address } = await startTestServer({ deps: { limits: { maxBodyBytes: 1_024 } } });
    const big = await api(address).post('/api/sessions', {
      task: 'x'.repeat(2_000),
      workspace: '/tmp',
    });
    expect(big).toMatchObject({ status: 413, body: { error: { code: 'payload_too_large' } } });
    const broken = await rawRequest(address, {
      method: 'POST',
      path: '/api/sessions',
      headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
      body: '{"task": ',
    });
    expect(broken).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
    const extra = await api(address).post('/api/sessions', {
      task: 't',
      workspace: '/tmp',
      admin: true,
    });
    expect(extra).toMatchObject({ status: 400, body: { error: { code: 'invalid_request' } } });
  });

  it('starts no session in a workspace outside the allowed roots, symlinks included', async () => {
    const { address, workspace } = await startTestServer();
    const outside = tempDir('correx-outside-');
    const link = join(workspace, 'escape');
    symlinkSync(outside, link);
    for (const path of [outside, link, '/', join(dirname(workspace), '..')]) {
      const reply = await api(address).post('/api/sessions', { task: 't', workspace: path });
      expect(reply, path).toMatchObject({
        status: 403,
        body: { error: { code: 'workspace_not_allowed' } },
      });
    }
    const relative = await api(address).post('/api/sessions', {
      task: 't',
      workspace: 'workspace',
    });
    expect(relative.status).toBe(400);
    mkdirSync(join(workspace, 'inner'));
    expect((await api(address).get('/api/sessions')).body).toEqual({ sessions: [] });
  });

  it('lets a client see only sessions that exist and events the API grants', async () => {
    const { address } = await startTestServer();
    expect(await api(address).get('/api/sessions/ghost')).toMatchObject({
      status: 404,
      body: { error: { code: 'session_not_found' } },
    });
    expect((await api(address).get('/api/sessions/ghost/events')).status).toBe(404);
    expect((await api(address).post('/api/sessions/ghost/pause', {})).status).toBe(404);
    const client = await connect(address);
    client.send({ type: 'subscribe', sessionId: 'ghost' });
    expect(await client.next(isType('error'))).toMatchObject({
      code: 'session_not_found',
      sessionId: 'ghost',
    });
    client.send({
      type: 'user_input',
      requestId: 'r1',
      sessionId: 'ghost',
      text: 'hi',
      mode: 'normal',
    });
    expect(await client.next((m) => m.type === 'error' && m.requestId === 'r1')).toMatchObject({
      code: 'router_unavailable',
    });
  });
});

describe('a shutdown', () => {
  it('is not held by a socket that never answers the close (a frozen tab)', async () => {
    const server = await startTestServer();
    const frozen = await connect(server.address);
    // The peer stops reading: it never sees the server's close frame, so never answers it.
    const raw = (frozen.socket as unknown as { _socket: { pause(): void; resume(): void } })
      ._socket;
    raw.pause();
    const closed = await Promise.race([
      server.close().then(() => 'closed'),
      new Promise((done) => setTimeout(() => done('still closing'), 8_000)),
    ]);
    raw.resume();
    expect(closed).toBe('closed');
  }, 20_000);
});
