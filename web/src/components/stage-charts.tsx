import { formatDuration, formatTokens } from '../format.js';
import type { StageSection } from '../model/timeline-types.js';

/** Per-stage time and tokens as bars, each with its number written out (readable without color). */
export function StageCharts(props: { sections: readonly StageSection[]; now: number }) {
  const rows = props.sections
    .filter((section) => section.stageId !== null)
    .map((section) => ({
      key: section.key,
      label: `${section.stageId}${section.attempt > 1 ? ` #${section.attempt}` : ''}`,
      ms: Math.max(
        0,
        (section.endedAt ? Date.parse(section.endedAt) : props.now) - Date.parse(section.startedAt),
      ),
      tokens: section.inputTokens + section.outputTokens,
    }));
  if (rows.length === 0)
    return (
      <section class="panel" aria-labelledby="charts-title">
        <h2 id="charts-title">Time and tokens per stage</h2>
        <p class="muted">No stage has started yet.</p>
      </section>
    );
  const maxMs = Math.max(1, ...rows.map((row) => row.ms));
  const maxTokens = Math.max(1, ...rows.map((row) => row.tokens));
  return (
    <section class="panel" aria-labelledby="charts-title">
      <h2 id="charts-title">Time and tokens per stage</h2>
      <table class="charts">
        <thead>
          <tr>
            <th scope="col">Stage</th>
            <th scope="col">Time</th>
            <th scope="col">Tokens</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.key}>
              <th scope="row">{row.label}</th>
              <td>
                <span
                  class="bar time"
                  style={{ width: `${(row.ms / maxMs) * 100}%` }}
                  aria-hidden="true"
                />
                <span class="bar-label">{formatDuration(row.ms)}</span>
              </td>
              <td>
                <span
                  class="bar tokens"
                  style={{ width: `${(row.tokens / maxTokens) * 100}%` }}
                  aria-hidden="true"
                />
                <span class="bar-label">{formatTokens(row.tokens)}</span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
