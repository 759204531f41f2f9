import type { EvalModelSummaryDto } from '../../../src/interfaces/protocol/eval-report-dto.js';
import { formatCost, formatDuration, formatTokens } from '../format.js';

/** An eval run's result per model: what `correx eval run` prints as its table. */
export function EvalModelTable(props: { models: readonly EvalModelSummaryDto[]; label: string }) {
  return (
    <div class="table-wrap">
      <table class="eval-models" aria-label={props.label}>
        <thead>
          <tr>
            <th scope="col">Model</th>
            <th scope="col">Pass rate</th>
            <th scope="col">Tokens (in / out)</th>
            <th scope="col">Cost</th>
            <th scope="col">Time</th>
            <th scope="col">Approvals that would have been asked</th>
            <th scope="col">Policy blocks</th>
          </tr>
        </thead>
        <tbody>
          {props.models.map((model) => (
            <tr key={model.model}>
              <th scope="row" class="mono">
                {model.model}
              </th>
              <td data-testid="pass-rate">
                {model.passed}/{model.runs} ({Math.round(model.passRate * 100)}%)
              </td>
              <td>
                {formatTokens(model.tokens.input)} / {formatTokens(model.tokens.output)}
              </td>
              <td>{formatCost(model.cost)}</td>
              <td>{formatDuration(model.durationMs)}</td>
              <td>{model.approvalsWouldAsk}</td>
              <td>{model.policyBlocks}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
