import Database from 'better-sqlite3';
import { fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { correxEventCatalog } from '../src/core/event-catalog.js';
import { openSqliteEventStore } from '../src/infrastructure/sqlite/sqlite-event-store.js';
import { benchEvent, rawEventRow, type RawEventRow } from './bench-events.js';
import { recordCorrex, runLangGraphLoop } from './langgraph-bench.js';
import { costOf, type Cost } from './cost-of.js';

/*
 * The rows of issue #38's table (cost per tool call), each a ratio against its baseline measured
 * in the same run: both sides alternate round by round, so a burst of load from elsewhere hits
 * both alike, and CPU time is given beside wall time (the machine may be shared). Each ratio is
 * baseline cost / subject cost, so above 1 the subject is cheaper; min, median and max over the
 * rounds. `npm run bench -- --only calls` (`--quick` for fewer turns).
 */

/** One row: per-operation costs of both sides per round. */
export type CallCostRow = {
  readonly name: string;
  readonly baseline: string;
  readonly unit: string;
  /** Per round, per operation. */
  readonly subject: readonly Cost[];
  readonly against: readonly Cost[];
};

const stats = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return {
    min: sorted[0]!,
    median: sorted[Math.floor(sorted.length / 2)]!,
    max: sorted.at(-1)!,
  };
};

export function printCallCostTable(rows: readonly CallCostRow[]): void {
  console.log('\nCost per tool call (issue #38): baseline cost / subject cost, min / median / max');
  const width = Math.max(...rows.map((row) => row.name.length));
  console.log(
    `${'row'.padEnd(width)}  ${'wall ratio'.padEnd(20)}  ${'CPU ratio'.padEnd(20)}  ${'subject CPU'.padStart(12)}  ${'baseline CPU'.padStart(12)}  baseline`,
  );
  const cell = (values: readonly number[]) => {
    const { min, median, max } = stats(values);
    return `${min.toFixed(2)} / ${median.toFixed(2)} / ${max.toFixed(2)}`.padEnd(20);
  };
  for (const row of rows) {
    const wall = row.subject.map((cost, index) => row.against[index]!.wallMs / cost.wallMs);
    const cpu = row.subject.map((cost, index) => row.against[index]!.cpuMs / cost.cpuMs);
    const subjectCpu = stats(row.subject.map((cost) => cost.cpuMs)).median;
    const baselineCpu = stats(row.against.map((cost) => cost.cpuMs)).median;
    const amount = (ms: number) =>
      `${row.unit === 'KB' ? ms.toFixed(2) : (ms * 1000).toFixed(ms < 0.01 ? 2 : 0)} ${row.unit === 'KB' ? 'KB' : 'µs'}`.padStart(
        12,
      );
    console.log(
      `${row.name.padEnd(width)}  ${cell(wall)}  ${cell(cpu)}  ${amount(subjectCpu)}  ${amount(baselineCpu)}  ${row.baseline}`,
    );
  }
  console.log(
    "  (the bytes rows: subject and baseline columns are KB per tool call as SQLite's dbstat counts them in each file, every table and index: pages in use, and the rows' own content; the ratio baseline / subject)",
  );
}

/** Rounds at the measured size run before the counted ones, for both sides alike. */
const WARM_ROUNDS = 3;

/** The size of the file each write_file call of the write row carries. */
const WRITE_BYTES = 1500;

/**
 * What a SQLite file holds, measured the same way for both sides (SQLite's dbstat, every table
 * and index): `pages`, the bytes of the pages in use, which is what the disk keeps, and `content`,
 * the bytes of the rows and index entries themselves. Counting named columns instead would favour
 * whichever side keeps more of its data in columns left uncounted.
 */
function storedBytes(path: string): { pages: number; content: number } {
  const db = new Database(path, { readonly: true });
  try {
    return db
      .prepare<[], { pages: number; content: number }>(
        "SELECT sum(pgsize) AS pages, sum(payload) AS content FROM dbstat WHERE name NOT LIKE 'sqlite_%' OR name LIKE 'sqlite_autoindex_%'",
      )
      .get()!;
  } finally {
    db.close();
  }
}

export async function runCallCostBench(
  options: { quick?: boolean; rounds?: number } = {},
): Promise<CallCostRow[]> {
  const available = await import('@langchain/langgraph-checkpoint-sqlite').then(
    () => true,
    () => false,
  );
  const rounds = Math.max(3, options.rounds ?? (options.quick ? 3 : 5));
  const dir = mkdtempSync(join(tmpdir(), 'correx-call-cost-'));
  const rows: CallCostRow[] = [];
  try {
    const verified = await verifyRowsApart(join(dir, 'read.db'), rounds, options.quick === true);
    let file = 0;
    const next = (name: string) => join(dir, `${name}-${(file += 1)}.db`);
    if (available) {
      for (const calls of [50, 1]) {
        const turns = calls === 50 ? (options.quick ? 4 : 20) : options.quick ? 40 : 300;
        const steps = calls * turns;
        const correx: Cost[] = [];
        const constant: Cost[] = [];
        const messages: Cost[] = [];
        type Stored = { pages: number; content: number };
        const bytes: { correx: Stored; constant: Stored }[] = [];
        // The first rounds at the measured size are not counted: V8 compiles both sides' hot code
        // over the first thousands of calls (a first round costs both two to three times a
        // later one), and a session that drives an agent for hours runs at the later cost.
        const warmRounds = options.quick ? 1 : WARM_ROUNDS;
        for (let round = -warmRounds; round < rounds; round++) {
          const paths = { correx: next('correx'), constant: next('lg'), messages: next('lg') };
          const per = (cost: Cost): Cost => ({
            wallMs: cost.wallMs / steps,
            cpuMs: cost.cpuMs / steps,
          });
          const constantCost = per(
            await costOf(() => runLangGraphLoop(paths.constant, turns, calls, 'constant')),
          );
          const correxCost = per(await costOf(() => recordCorrex(paths.correx, turns, calls)));
          const messagesCost = per(
            await costOf(() => runLangGraphLoop(paths.messages, turns, calls, 'messages')),
          );
          if (round < 0) continue;
          constant.push(constantCost);
          correx.push(correxCost);
          messages.push(messagesCost);
          bytes.push({ correx: storedBytes(paths.correx), constant: storedBytes(paths.constant) });
        }
        rows.push(
          {
            name: `kernel + SQLite, ${calls} call(s) per answer, per call`,
            baseline: 'LangGraph.js ToolNode + SqliteSaver, constant state',
            unit: 'µs',
            subject: correx,
            against: constant,
          },
          {
            name: `kernel + SQLite, ${calls} call(s) per answer, per call`,
            baseline: 'LangGraph.js ToolNode + SqliteSaver, message-list state',
            unit: 'µs',
            subject: correx,
            against: messages,
          },
        );
        // Bytes in both ratio columns: there is no wall or CPU in a byte count.
        const kb = (value: number): Cost => ({
          wallMs: value / steps / 1024,
          cpuMs: value / steps / 1024,
        });
        rows.push(
          {
            name: `bytes stored per tool call, ${calls} call(s) per answer (pages)`,
            baseline: 'LangGraph.js SqliteSaver, constant state: SQLite pages in use',
            unit: 'KB',
            subject: bytes.map((b) => kb(b.correx.pages)),
            against: bytes.map((b) => kb(b.constant.pages)),
          },
          {
            name: `bytes stored per tool call, ${calls} call(s) per answer (rows)`,
            baseline: 'LangGraph.js SqliteSaver, constant state: row and index content',
            unit: 'KB',
            subject: bytes.map((b) => kb(b.correx.content)),
            against: bytes.map((b) => kb(b.constant.content)),
          },
        );
      }
      // The shape of a coding agent's writes: one write_file call an answer, each carrying a new
      // 1.5 KB file. Bytes only (the same every round): where a file's content is stored, and
      // how many times.
      const writeTurns = options.quick ? 40 : 150;
      const writes = { correx: next('correx-write'), constant: next('lg-write') };
      await recordCorrex(writes.correx, writeTurns, 1, 'write_file', WRITE_BYTES);
      await runLangGraphLoop(writes.constant, writeTurns, 1, 'constant', WRITE_BYTES);
      const written = {
        correx: storedBytes(writes.correx),
        constant: storedBytes(writes.constant),
      };
      const perWrite = (value: number): Cost => ({
        wallMs: value / writeTurns / 1024,
        cpuMs: value / writeTurns / 1024,
      });
      rows.push(
        {
          name: `bytes stored per write_file call of ${WRITE_BYTES} B, 1 per answer (pages)`,
          baseline: 'LangGraph.js SqliteSaver, constant state: SQLite pages in use',
          unit: 'KB',
          subject: [perWrite(written.correx.pages)],
          against: [perWrite(written.constant.pages)],
        },
        {
          name: `bytes stored per write_file call of ${WRITE_BYTES} B, 1 per answer (rows)`,
          baseline: 'LangGraph.js SqliteSaver, constant state: row and index content',
          unit: 'KB',
          subject: [perWrite(written.correx.content)],
          against: [perWrite(written.constant.content)],
        },
      );
    } else {
      console.log('  (LangGraph.js is not installed: the rows against it are left out)');
    }
    rows.push(await appendAllRow(dir, rounds, options.quick === true));
    rows.push(...verified);
    return rows;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** SQLite appendAll of 100 events (NORMAL) against raw inserts of the same bytes, per event. */
async function appendAllRow(dir: string, rounds: number, quick: boolean): Promise<CallCostRow> {
  const perRound = quick ? 10 : 40;
  const batches = perRound * (rounds + 1);
  const db = new Database(join(dir, 'raw.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`CREATE TABLE raw_events (
    position INTEGER PRIMARY KEY, session_id TEXT NOT NULL, sequence INTEGER NOT NULL,
    event_id TEXT NOT NULL UNIQUE, bytes TEXT NOT NULL, UNIQUE (session_id, sequence))`);
  const insert = db.prepare(
    'INSERT INTO raw_events (session_id, sequence, event_id, bytes) VALUES (@sessionId, @sequence, @eventId, @bytes)',
  );
  const insertMany = db.transaction((rows: RawEventRow[]) => {
    for (const row of rows) insert.run(row);
  });
  const store = openSqliteEventStore(join(dir, 'store.db'), {
    catalog: correxEventCatalog,
    synchronous: 'normal',
  });
  const raw = Array.from({ length: batches }, (_, b) =>
    Array.from({ length: 100 }, (_, i) => rawEventRow('raw', b * 100 + i + 1)),
  );
  const events = Array.from({ length: batches }, (_, b) =>
    Array.from({ length: 100 }, (_, i) => benchEvent('s', b * 100 + i + 1)),
  );
  const subject: Cost[] = [];
  const against: Cost[] = [];
  const per = (cost: Cost): Cost => ({
    wallMs: cost.wallMs / (perRound * 100),
    cpuMs: cost.cpuMs / (perRound * 100),
  });
  try {
    // Round 0 warms both up and is not counted.
    for (let round = 0; round <= rounds; round++) {
      const from = round * perRound;
      const baseline = per(
        await costOf(() => {
          for (let b = from; b < from + perRound; b++) insertMany(raw[b]!);
        }),
      );
      const measured = per(
        await costOf(async () => {
          for (let b = from; b < from + perRound; b++)
            await store.appendAll(events[b]!, { expectedSequence: b * 100 });
        }),
      );
      if (round === 0) continue;
      against.push(baseline);
      subject.push(measured);
    }
  } finally {
    db.close();
    await store.close();
  }
  return {
    name: 'SQLite appendAll of 100 (NORMAL), per event',
    baseline: 'raw better-sqlite3 inserts of the same bytes, 100 a transaction',
    unit: 'µs',
    subject,
    against,
  };
}

/**
 * The verify rows (verify-rows.ts), measured in a process of their own. In this one LangGraph's
 * modules are loaded, and with them loaded the same verify costs about half as much again (5.0
 * against 7.4 µs of CPU an event, and 13 after its sessions ran): a `correx verify` runs in a
 * process that holds correx alone.
 */
async function verifyRowsApart(
  path: string,
  rounds: number,
  quick: boolean,
): Promise<CallCostRow[]> {
  const child = fork(new URL('./verify-rows.ts', import.meta.url).pathname, [
    path,
    String(rounds),
    quick ? 'quick' : 'full',
  ]);
  return new Promise((resolve, reject) => {
    let rows: CallCostRow[] | undefined;
    child.on('message', (message) => (rows = message as CallCostRow[]));
    child.on('error', reject);
    child.on('exit', (code) =>
      rows !== undefined && code === 0
        ? resolve(rows)
        : reject(new Error(`the verify rows' process exited with ${code}`)),
    );
  });
}
