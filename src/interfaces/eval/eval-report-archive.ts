import { mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CorrexError } from '../../core/base/correx-error.js';
import { EvalIdSchema, EvalRecordSchema, type EvalRecord } from '../protocol/eval-report-dto.js';

/** Where `correx eval run` saves its reports and `correx serve` reads them. */
export function evalReportDirectory(correxHome: string): string {
  return join(correxHome, 'evals');
}

/** A saved report that is missing, or an id that cannot name one. */
export class EvalReportNotFoundError extends CorrexError {
  constructor(id: string) {
    super('eval_not_found', `no eval run ${id}`);
  }
}

/**
 * Saves one eval run's report as `<directory>/<id>.json`, written whole then renamed into place,
 * so a reader never sees half a report. Returns the file's path.
 */
export function saveEvalReport(
  directory: string,
  record: { readonly id: string; readonly startedAt: string; readonly finishedAt: string },
): string {
  const id = EvalIdSchema.parse(record.id);
  mkdirSync(directory, { recursive: true });
  const path = join(directory, `${id}.json`);
  const partial = `${path}.partial`;
  writeFileSync(partial, `${JSON.stringify(record, null, 2)}\n`);
  renameSync(partial, path);
  return path;
}

/** Every saved report, newest first (by start time), and the files that are not one. */
export function listEvalReports(directory: string): {
  readonly reports: readonly EvalRecord[];
  readonly unreadable: readonly { readonly file: string; readonly reason: string }[];
} {
  let files: string[];
  try {
    files = readdirSync(directory).filter((file) => file.endsWith('.json'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { reports: [], unreadable: [] };
    throw error;
  }
  const reports: EvalRecord[] = [];
  const unreadable: { file: string; reason: string }[] = [];
  for (const file of files.sort()) {
    const read = readRecord(join(directory, file));
    if (read.ok && `${read.record.id}.json` === file) reports.push(read.record);
    else unreadable.push({ file, reason: read.ok ? 'its id is not its file name' : read.reason });
  }
  reports.sort((x, y) => y.startedAt.localeCompare(x.startedAt) || y.id.localeCompare(x.id));
  return { reports, unreadable };
}

/** One saved report by id; an id that names no readable report is `EvalReportNotFoundError`. */
export function readEvalReport(directory: string, id: string): EvalRecord {
  if (!EvalIdSchema.safeParse(id).success) throw new EvalReportNotFoundError(id);
  const read = readRecord(join(directory, `${id}.json`));
  if (read.ok && read.record.id === id) return read.record;
  if (!read.ok && read.missing) throw new EvalReportNotFoundError(id);
  throw new CorrexError(
    'eval_report_unreadable',
    `the report of eval run ${id} cannot be read: ${read.ok ? 'its id is not its file name' : read.reason}`,
  );
}

function readRecord(
  path: string,
):
  | { readonly ok: true; readonly record: EvalRecord }
  | { readonly ok: false; readonly missing: boolean; readonly reason: string } {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return { ok: false, missing: code === 'ENOENT', reason: `unreadable (${code ?? 'error'})` };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, missing: false, reason: 'not JSON' };
  }
  const parsed = EvalRecordSchema.safeParse(json);
  if (parsed.success) return { ok: true, record: parsed.data };
  const issue = parsed.error.issues[0];
  return {
    ok: false,
    missing: false,
    reason: `not an eval report (${issue === undefined ? 'invalid' : `${issue.path.join('.') || 'top'}: ${issue.message}`})`,
  };
}
