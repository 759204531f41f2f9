import { mkdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  hang,
  json,
  startFakeHttpServer,
  stall,
  type FakeHandler,
  type FakeHttpServer,
} from '../providers/fake-http-server.js';
import { tempDir } from '../support/temp-dir.js';
import { correx } from './cli-process.js';

type Check = { name: string; ok: boolean; detail: string; fix?: string };

const listing: FakeHandler = json(200, {
  object: 'list',
  data: [{ id: 'served-model', object: 'model' }],
});

/** Answers the model list, and hands the chat request to `chat`. */
function modelsThen(chat: FakeHandler): FakeHandler {
  return (request, response) =>
    request.method === 'GET' ? listing(request, response) : chat(request, response);
}

/**
 * `correx doctor` probes endpoints a configuration (or a repository's harness.yaml) names: it
 * must never be led to another host by a redirect (carrying the key there), and a server that
 * hangs must cost a bounded time per probe, not a minute.
 */
describe('correx doctor probes', () => {
  const root = realpathSync(tempDir('correx-doctor-probes-'));
  let model: FakeHttpServer;
  let elsewhere: FakeHttpServer;

  beforeAll(async () => {
    model = await startFakeHttpServer();
    elsewhere = await startFakeHttpServer();
    elsewhere.reply(listing);
  });
  afterAll(async () => {
    await model.close();
    await elsewhere.close();
  });

  async function doctor(name: string, env: NodeJS.ProcessEnv, ...extra: string[]) {
    const dir = join(root, name);
    mkdirSync(join(dir, 'ws'), { recursive: true });
    const result = await correx(
      dir,
      ['doctor', '--json', '--workspace', join(dir, 'ws'), ...extra],
      env,
    );
    const report = JSON.parse(result.stdout) as { ok: boolean; checks: Check[] };
    return { result, byName: new Map(report.checks.map((check) => [check.name, check])) };
  }

  it('does not follow a redirect to another host: nothing reaches it, and the check names where it led', async () => {
    // `localhost` is another host than the configured 127.0.0.1, on another port too.
    const target = `${elsewhere.url.replace('127.0.0.1', 'localhost')}/v1/models`;
    model.reply((_request, response) => {
      response.writeHead(307, { location: target }).end();
    });
    const { result, byName } = await doctor('redirect', {
      OPENAI_BASE_URL: `${model.url}/v1`,
      CORREX_MODEL: 'served-model',
      OPENAI_API_KEY: 'sk-secret-never-sent-elsewhere',
    });
    expect(result.code).toBe(1);
    expect(elsewhere.requests).toHaveLength(0);
    expect(byName.get('model env: reachable')).toMatchObject({
      ok: false,
      detail: `${model.url}/v1/models redirects to ${target}, another host; correx does not follow a redirect off the configured host`,
    });
    expect(byName.has('model env: tool calling')).toBe(false);
  }, 120_000);

  it('follows a redirect within the same host', async () => {
    model.reply((request, response) => {
      if (request.path === '/v1/models')
        return void response.writeHead(308, { location: '/v1/models/' }).end();
      return modelsThen(json(500, {}))(request, response);
    });
    const { byName } = await doctor('same-host', {
      OPENAI_BASE_URL: `${model.url}/v1`,
      CORREX_MODEL: 'served-model',
    });
    expect(byName.get('model env: listed')).toMatchObject({ ok: true });
  }, 120_000);

  it('bounds each probe: a server that hangs, or sends headers then goes silent, is reported after --probe-timeout', async () => {
    for (const [name, chat] of [
      ['hung', hang],
      ['stalled', stall(['{"id":"x"}'])],
    ] as const) {
      model.reply(modelsThen(chat));
      const { result, byName } = await doctor(
        name,
        { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' },
        '--probe-timeout',
        '1s',
      );
      expect(result.code, name).toBe(1);
      expect(byName.get('model env: tool calling'), name).toMatchObject({
        ok: false,
        detail: expect.stringContaining('no answer within 1 s'),
        fix: expect.stringContaining('--probe-timeout'),
      });
    }
    const bad = await correx(join(root, 'hung'), ['doctor', '--probe-timeout', 'soon']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--probe-timeout takes a duration');
  }, 120_000);
});
