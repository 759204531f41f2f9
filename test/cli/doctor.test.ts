import { mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  json,
  startFakeHttpServer,
  type FakeHandler,
  type FakeHttpServer,
} from '../providers/fake-http-server.js';
import { chatCompletion } from '../providers/openai-wire.js';
import { tempDir } from '../support/temp-dir.js';
import { correx } from './cli-process.js';

type Check = { name: string; ok: boolean; detail: string; fix?: string };

/** An OpenAI-compatible server: its model list, and a chat answer that calls the offered tool. */
function modelServer(served: readonly string[], callsTools = true): FakeHandler {
  return (request, response) => {
    if (request.method === 'GET' && request.path === '/v1/models')
      return json(200, {
        object: 'list',
        data: served.map((id) => ({ id, object: 'model' })),
      })(request, response);
    if (request.method === 'POST' && request.path === '/v1/chat/completions') {
      const tool = (request.body as { tools: { function: { name: string } }[] }).tools[0]!;
      return json(
        200,
        chatCompletion(
          callsTools
            ? {
                toolCalls: [
                  { id: 'call_1', name: tool.function.name, arguments: '{"ready":true}' },
                ],
              }
            : { content: 'I am ready.' },
        ),
      )(request, response);
    }
    response.writeHead(404).end();
  };
}

describe('correx doctor', () => {
  const root = realpathSync(tempDir('correx-doctor-test-'));
  let model: FakeHttpServer;
  let downUrl: string;

  beforeAll(async () => {
    model = await startFakeHttpServer();
    // A port nothing listens on any more: connections to it are refused.
    const gone = await startFakeHttpServer();
    downUrl = gone.url;
    await gone.close();
  });
  afterAll(async () => {
    await model.close();
  });

  function home(name: string): string {
    const dir = join(root, name);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** `correx doctor --json` with CORREX_HOME `dir`, on a workspace of its own. */
  async function doctor(dir: string, env: NodeJS.ProcessEnv) {
    const workspace = join(dir, 'ws');
    mkdirSync(workspace, { recursive: true });
    const result = await correx(dir, ['doctor', '--json', '--workspace', workspace], env);
    const report = JSON.parse(result.stdout) as { ok: boolean; checks: Check[] };
    expect(result.code).toBe(report.ok ? 0 : 1);
    const byName = new Map(report.checks.map((check) => [check.name, check]));
    return { result, report, byName };
  }

  it('passes a reachable server that serves the model and calls the tool, after a real request with one tool', async () => {
    model.reply(modelServer(['other-model', 'served-model']));
    const dir = home('reachable');
    const { report, byName } = await doctor(dir, {
      OPENAI_BASE_URL: `${model.url}/v1`,
      CORREX_MODEL: 'served-model',
    });
    expect(byName.get('configuration')).toMatchObject({ ok: true });
    expect(byName.get('configuration')!.detail).toContain("the environment's model");
    expect(byName.get('store')).toMatchObject({ ok: true });
    for (const name of ['reachable', 'listed', 'tool calling'])
      expect(byName.get(`model env: ${name}`), name).toMatchObject({ ok: true });
    const probe = model.requests.find((request) => request.method === 'POST')!;
    expect(probe.body).toMatchObject({
      model: 'served-model',
      tools: [{ type: 'function', function: { name: 'report_ready' } }],
    });
    // Exit 0 exactly when the sandbox check passes too: nothing else is wrong here.
    expect(report.ok).toBe(byName.get('sandbox')!.ok);

    const text = await correx(dir, ['doctor', '--workspace', join(dir, 'ws')], {
      OPENAI_BASE_URL: `${model.url}/v1`,
      CORREX_MODEL: 'served-model',
    });
    expect(text.stdout).toMatch(/^✓ model env: tool calling: served-model at .* by calling it$/m);
  });

  it('names a server that is down, and says how to fix it', async () => {
    const dir = home('down');
    const { result, byName } = await doctor(dir, {
      OPENAI_BASE_URL: `${downUrl}/v1`,
      CORREX_MODEL: 'served-model',
    });
    expect(result.code).toBe(1);
    const reachable = byName.get('model env: reachable')!;
    expect(reachable.ok).toBe(false);
    expect(reachable.detail).toContain('ECONNREFUSED');
    expect(reachable.fix).toMatch(/start the model server .* or correct OPENAI_BASE_URL/);
    expect(byName.has('model env: tool calling')).toBe(false);
  });

  it('names a model the server does not list, and one that answers without calling the tool', async () => {
    model.reply(modelServer(['llama-3-8b']));
    const dir = home('unlisted');
    const unlisted = await doctor(dir, {
      OPENAI_BASE_URL: `${model.url}/v1`,
      CORREX_MODEL: 'served-model',
    });
    expect(unlisted.result.code).toBe(1);
    expect(unlisted.byName.get('model env: listed')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('does not serve served-model; it serves llama-3-8b'),
      fix: expect.stringContaining('CORREX_MODEL'),
    });

    model.reply(modelServer(['served-model'], false));
    const silent = await doctor(dir, {
      OPENAI_BASE_URL: `${model.url}/v1`,
      CORREX_MODEL: 'served-model',
    });
    expect(silent.byName.get('model env: tool calling')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('without calling it'),
      fix: expect.stringContaining('--jinja'),
    });
  });

  it('says a harness.yaml with models wins over OPENAI_BASE_URL; init keeps the environment’s server and says so', async () => {
    model.reply(modelServer(['served-model']));
    const env = { OPENAI_BASE_URL: `${model.url}/v1`, CORREX_MODEL: 'served-model' };
    const dir = home('both');
    writeFileSync(
      join(dir, 'harness.yaml'),
      `providers:\n  other:\n    kind: openai-compatible\n    baseUrl: ${downUrl}/v1\nmodels:\n  - id: other\n    provider: other\n    model: m\n    capabilities: [tool_calling]\n    contextWindow: 8192\n`,
    );
    const both = await doctor(dir, env);
    expect(both.byName.get('configuration')).toMatchObject({
      ok: false,
      detail: expect.stringContaining('is set but not used'),
    });
    expect(both.byName.get('model other: reachable')).toMatchObject({ ok: false });

    const fresh = home('init');
    const init = await correx(fresh, ['init'], env);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain(`OPENAI_BASE_URL is set: from now on the models in`);
    expect(init.stdout).toContain(`points at ${model.url}/v1 with model served-model`);
    const written = parse(readFileSync(join(fresh, 'harness.yaml'), 'utf8')) as {
      providers: { local: { baseUrl: string } };
      models: { model: string }[];
    };
    expect(written.providers.local.baseUrl).toBe(`${model.url}/v1`);
    expect(written.models[0]!.model).toBe('served-model');
    const after = await doctor(fresh, env);
    expect(after.byName.get('configuration')).toMatchObject({
      ok: true,
      detail: expect.stringContaining('OPENAI_BASE_URL names the same server'),
    });
    expect(after.byName.get('model local: tool calling')).toMatchObject({ ok: true });
  });
});
