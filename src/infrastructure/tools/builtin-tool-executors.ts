import type { WorldProbe } from '../../core/toolintent/world-probe.js';
import { createDiskWorldProbe } from '../world-probe/disk-world-probe.js';
import { createExecExecutor, type ExecToolOptions } from './exec-tool.js';
import {
  createCopyFileExecutor,
  createEditFileExecutor,
  createMoveFileExecutor,
  createReadFileExecutor,
  createWriteFileExecutor,
} from './file-tools.js';
import { createHttpFetchExecutor, type HttpFetchToolOptions } from './http-fetch-tool.js';
import { createGlobExecutor, createGrepExecutor, createListDirExecutor } from './search-tools.js';
import type { ToolExecutor } from './tool-executor.js';

export type BuiltinToolExecutorOptions = {
  /** The probe used for last-moment re-checks; defaults to the on-disk probe. */
  readonly probe?: WorldProbe;
  readonly maxOutputBytes?: number;
  /** The time bound of each file and search call (exec and http_fetch have their own). */
  readonly timeBoundMs?: number;
  readonly exec?: Omit<ExecToolOptions, 'probe' | 'maxOutputBytes'>;
  readonly http?: Omit<HttpFetchToolOptions, 'maxOutputBytes'>;
};

/** The executors of every built-in tool, by tool name (the contracts are in core/tools/builtin-tools). */
export function createBuiltinToolExecutors(
  options: BuiltinToolExecutorOptions = {},
): Readonly<Record<string, ToolExecutor>> {
  const probe = options.probe ?? createDiskWorldProbe();
  const common = {
    probe,
    ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
    ...(options.timeBoundMs === undefined ? {} : { timeBoundMs: options.timeBoundMs }),
  };
  const executors = [
    createReadFileExecutor(common),
    createWriteFileExecutor(common),
    createEditFileExecutor(common),
    createListDirExecutor(common),
    createGlobExecutor(common),
    createGrepExecutor(common),
    createExecExecutor({ ...common, ...options.exec }),
    createHttpFetchExecutor({
      ...(options.maxOutputBytes === undefined ? {} : { maxOutputBytes: options.maxOutputBytes }),
      ...options.http,
    }),
    createCopyFileExecutor(common),
    createMoveFileExecutor(common),
  ];
  return Object.freeze(Object.fromEntries(executors.map((executor) => [executor.name, executor])));
}
