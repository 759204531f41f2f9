import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BaseMessage } from '@langchain/core/messages';
import { z } from 'zod';
import { correxEventCatalog } from '../src/core/event-catalog.js';
import { openSqliteEventStore } from '../src/infrastructure/sqlite/sqlite-event-store.js';
import {
  benchFileContent,
  CALLS_PER_TURN,
  recordSession,
  type BenchTool,
} from './bench-session.js';
import { row, type BenchRow } from './bench-table.js';
import { costOf } from './cost-of.js';

/**
 * The same agent loop in LangGraph.js: a model node that proposes `calls` list_dir calls a turn for `turns` turns and then answers, LangGraph's prebuilt ToolNode running a no-op
 * tool, checkpointed after every super-step by SqliteSaver (WAL, SQLite's default FULL sync)
 * into a file. `state`: a growing message list (LangGraph's MessagesAnnotation), or `constant`,
 * a message channel each step replaces (the last answer or the last tool results only), so a
 * checkpoint stays the same size however long the session: LangGraph's floor.
 */
export async function runLangGraphLoop(
  path: string,
  turns: number,
  calls: number,
  state: 'messages' | 'constant' = 'messages',
  /** Calls write_file with content of this size (benchFileContent) instead of list_dir. */
  writeBytes?: number,
): Promise<void> {
  const { StateGraph, MessagesAnnotation, Annotation, START, END } =
    await import('@langchain/langgraph');
  const ConstantAnnotation = Annotation.Root({
    messages: Annotation<BaseMessage[]>({
      reducer: (_previous, next) => next,
      default: () => [],
    }),
  });
  const { ToolNode } = await import('@langchain/langgraph/prebuilt');
  const { SqliteSaver } = await import('@langchain/langgraph-checkpoint-sqlite');
  const { AIMessage } = await import('@langchain/core/messages');
  const { tool } = await import('@langchain/core/tools');
  const benchTool =
    writeBytes === undefined
      ? tool(() => Promise.resolve('ok'), {
          name: 'list_dir',
          description: 'List a directory.',
          schema: z.object({ path: z.string() }),
        })
      : tool(() => Promise.resolve('ok'), {
          name: 'write_file',
          description: 'Write a file.',
          schema: z.object({ path: z.string(), content: z.string() }),
        });
  const checkpointer = SqliteSaver.fromConnString(path);
  // Each of a super-step's parallel tool calls adds an abort listener to one signal of
  // LangGraph's; without room for them Node warns once per call past ten.
  const defaultMaxListeners = EventEmitter.defaultMaxListeners;
  EventEmitter.defaultMaxListeners = Math.max(defaultMaxListeners, calls + 10);
  let turn = 0;
  const graph = new StateGraph(state === 'constant' ? ConstantAnnotation : MessagesAnnotation)
    .addNode('model', () => {
      turn += 1;
      if (turn > turns) return { messages: [new AIMessage('looked')] };
      return {
        messages: [
          new AIMessage({
            content: '',
            tool_calls: Array.from({ length: calls }, (_unused, index) => ({
              id: `t${turn}-${index}`,
              name: benchTool.name,
              args:
                writeBytes === undefined
                  ? { path: `dir-${index}` }
                  : {
                      path: `file-${turn}-${index}.txt`,
                      content: benchFileContent(turn, index, writeBytes),
                    },
              type: 'tool_call' as const,
            })),
          }),
        ],
      };
    })
    .addNode('tools', new ToolNode([benchTool]))
    .addEdge(START, 'model')
    .addConditionalEdges('model', (state) => {
      const last = state.messages.at(-1);
      return last instanceof AIMessage && (last.tool_calls?.length ?? 0) > 0 ? 'tools' : END;
    })
    .addEdge('tools', 'model')
    .compile({ checkpointer });
  try {
    const { HumanMessage } = await import('@langchain/core/messages');
    await graph.invoke(
      { messages: [new HumanMessage('look around')] },
      { configurable: { thread_id: 'bench' }, recursionLimit: 2 * turns + 10 },
    );
  } finally {
    EventEmitter.defaultMaxListeners = defaultMaxListeners;
    checkpointer.db.close();
  }
}

/**
 * Per tool-call step, correx's kernel (scripted model, no-op tool, every decision and result an
 * event appended to a SQLite store, default FULL sync) side by side with a LangGraph.js loop of
 * the same shape checkpointed to SQLite. Skipped when the bench-only LangGraph packages are
 * not installed.
 */
export async function runLangGraphBench(options: { quick?: boolean } = {}): Promise<BenchRow[]> {
  const available = await import('@langchain/langgraph-checkpoint-sqlite').then(
    () => true,
    () => false,
  );
  if (!available) return [];
  const dir = mkdtempSync(join(tmpdir(), 'correx-langgraph-bench-'));
  try {
    // Warm both up on a short run first, so neither pays for loading and compiling its code.
    await runLangGraphLoop(join(dir, 'warm-langgraph.db'), 1, CALLS_PER_TURN);
    await recordCorrex(join(dir, 'warm-correx.db'), 1, CALLS_PER_TURN);
    const rows: BenchRow[] = [];
    // Two shapes: many calls per model turn (LangGraph checkpoints once per super-step, correx
    // records every call's proposal, observation, assessment, approval, start and receipt), and
    // the plain ReAct loop of one call per model turn.
    // The third runs correx's calls as writes, which can change the world: each call's intent
    // is committed before its tool runs and its receipt after (read-only calls of a turn are
    // committed together). LangGraph's tool node runs its no-op tool the same way for both.
    const shapes: { calls: number; turns: number; tool: BenchTool }[] = [
      { calls: CALLS_PER_TURN, turns: options.quick ? 4 : 34, tool: 'list_dir' },
      { calls: 1, turns: options.quick ? 100 : 500, tool: 'list_dir' },
      { calls: CALLS_PER_TURN, turns: options.quick ? 4 : 34, tool: 'write_file' },
    ];
    for (const [index, { calls, turns, tool }] of shapes.entries()) {
      const steps = calls * turns;
      const shape = `${steps} ${tool} calls, ${calls} a turn`;
      const langgraph = await costOf(() =>
        runLangGraphLoop(join(dir, `langgraph-${index}.db`), turns, calls),
      );
      const correx = await costOf(() =>
        recordCorrex(join(dir, `correx-${index}.db`), turns, calls, tool),
      );
      const langgraphWall = row(
        `LangGraph.js + SqliteSaver, ${shape} (wall)`,
        (steps * 1000) / langgraph.wallMs,
        'steps/s',
      );
      const langgraphCpu = row(
        `LangGraph.js + SqliteSaver, ${shape} (CPU)`,
        (steps * 1000) / langgraph.cpuMs,
        'steps/s',
      );
      rows.push(
        langgraphWall,
        row(
          `correx kernel + SQLite store, ${shape} (wall)`,
          (steps * 1000) / correx.wallMs,
          'steps/s',
          langgraphWall,
        ),
        langgraphCpu,
        row(
          `correx kernel + SQLite store, ${shape} (CPU)`,
          (steps * 1000) / correx.cpuMs,
          'steps/s',
          langgraphCpu,
        ),
      );
    }
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function recordCorrex(
  path: string,
  turns: number,
  callsPerTurn: number,
  tool: BenchTool = 'list_dir',
  writeBytes?: number,
): Promise<void> {
  const store = openSqliteEventStore(path, { catalog: correxEventCatalog });
  try {
    await recordSession(turns, {
      store,
      callsPerTurn,
      tool,
      ...(writeBytes === undefined ? {} : { writeBytes }),
    });
  } finally {
    await store.close();
  }
}
