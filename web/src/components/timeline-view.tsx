import { eventLabel } from '../model/event-label.js';
import { execCommandLine } from '../../../src/interfaces/exec-command-line.js';
import { visibleLines, visibleText } from '../../../src/core/base/visible-text.js';
import type { VNode } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { formatDuration, formatTime, formatTokens, prettyArgs } from '../format.js';
import type { StageSection, TimelineItem, ToolCallItem } from '../model/timeline-types.js';
import { ArtifactView } from './artifact-view.js';
import { DiffView } from './diff-view.js';
import { ForkAction } from './fork-action.js';
import { ModelCallContext } from './model-call-context.js';
import { shownVerdict } from '../model/shown-verdict.js';
import {
  EMPTY_LIVE_OUTPUT,
  liveCommandOutput,
  liveModelText,
  type LiveOutput,
} from '../model/live-output.js';

/** Items per section rendered at first; older ones behind a button (long sessions stay fast). */
const VISIBLE_ITEMS = 150;

/** Shown of a stream that is still coming: its end (the whole is in the recorded result). */
const LIVE_SHOWN_CHARS = 4_000;

export function TimelineView(props: {
  sections: readonly StageSection[];
  now: number;
  /** What the running model call and command produce now (shown in the latest section). */
  live?: LiveOutput;
  /** The session shown: stages and calls offer "fork from here" (absent: no fork action). */
  sessionId?: string;
}) {
  // A section re-renders only when it changed (or, while running, as its clock ticks): a long
  // session's finished stages are not diffed again on every live event.
  const cache = useRef(new Map<string, { signature: string; node: VNode }>());
  const live = props.live ?? EMPTY_LIVE_OUTPUT;
  const liveSignature = [...live.streams.values()]
    .map((stream) => `${stream.id}:${stream.text.length}`)
    .join(',');
  return (
    <ol class="timeline" aria-label="Timeline">
      {props.sections.map((section, index) => {
        const latest = index === props.sections.length - 1;
        const signature = `${section.revision}|${section.outcome === 'running' ? props.now : ''}|${latest ? liveSignature : ''}`;
        let hit = cache.current.get(section.key);
        if (hit?.signature !== signature) {
          hit = {
            signature,
            node: (
              <SectionView
                key={section.key}
                section={section}
                now={props.now}
                latest={latest}
                live={latest ? live : EMPTY_LIVE_OUTPUT}
                {...(props.sessionId === undefined ? {} : { sessionId: props.sessionId })}
              />
            ),
          };
          cache.current.set(section.key, hit);
        }
        return hit.node;
      })}
    </ol>
  );
}

function sectionTitle(section: StageSection): string {
  if (section.stageId === null) return 'Session';
  return `${section.stageId}${section.attempt > 1 ? ` (attempt ${section.attempt})` : ''}`;
}

function SectionView(props: {
  section: StageSection;
  now: number;
  latest: boolean;
  live: LiveOutput;
  sessionId?: string;
}) {
  const { section } = props;
  const [showAll, setShowAll] = useState(false);
  // Finished stages start folded (their header says how they ended); the latest, a running and
  // a failed one start open. A 5,000-event session renders one stage's entries, not all.
  const [expanded, setExpanded] = useState(
    props.latest || section.outcome === 'running' || section.outcome === 'failed',
  );
  const end = section.endedAt ? Date.parse(section.endedAt) : props.now;
  const hidden = showAll ? 0 : Math.max(0, section.items.length - VISIBLE_ITEMS);
  const id = `section-${section.key.replace(/[^a-z0-9_-]/gi, '-')}`;
  return (
    <li class={`stage stage-${section.outcome}`} aria-labelledby={id}>
      <h3 id={id}>
        <span>{sectionTitle(section)}</span>
        <span class={`badge outcome-${section.outcome}`}>
          {section.outcome === 'preamble' ? 'setup' : section.outcome}
        </span>
        {section.verdict && <span class="badge">verdict: {section.verdict}</span>}
        {section.failedChecks.length > 0 && (
          <span class="badge outcome-failed" data-testid="stage-failed-checks">
            check failed: {[...new Set(section.failedChecks)].join(', ')}
          </span>
        )}
        <span class="muted small">
          {section.stageId !== null &&
            formatDuration(Math.max(0, end - Date.parse(section.startedAt)))}
          {section.inputTokens + section.outputTokens > 0 &&
            ` · ${formatTokens(section.inputTokens)} in / ${formatTokens(section.outputTokens)} out tokens`}
        </span>
      </h3>
      {section.failure && <p class="error">{section.failure}</p>}
      <button
        type="button"
        class="link"
        aria-expanded={expanded}
        aria-controls={`${id}-items`}
        onClick={() => setExpanded(!expanded)}
      >
        {expanded ? 'Fold' : `Show ${section.items.length} entries`}
      </button>
      {props.sessionId !== undefined && section.stageId !== null && (
        <ForkAction
          sessionId={props.sessionId}
          at={`stage:${section.stageId}#${section.attempt}`}
          what={`before stage ${sectionTitle(section)} started`}
        />
      )}
      {expanded && hidden > 0 && (
        <button type="button" class="link" onClick={() => setShowAll(true)}>
          Show {hidden} earlier entries
        </button>
      )}
      {expanded && (
        <ol class="items" id={`${id}-items`}>
          {section.items.slice(hidden).map((item) => (
            <ItemView
              key={item.kind === 'tool_call' ? item.callId : item.sequence}
              item={item}
              live={props.live}
              {...(props.sessionId === undefined ? {} : { sessionId: props.sessionId })}
            />
          ))}
          {liveModelText(props.live).map((stream) => (
            <li
              key={`live-${stream.id}`}
              class="item inference streaming"
              data-kind="live-model-text"
            >
              <span class="badge outcome-running">model writing…</span>
              <pre class="output streaming" aria-label="The model's text so far" aria-live="polite">
                {visibleLines(stream.text.slice(-LIVE_SHOWN_CHARS))}
              </pre>
            </li>
          ))}
        </ol>
      )}
    </li>
  );
}

function ItemView(props: { item: TimelineItem; live: LiveOutput; sessionId?: string }) {
  const { item } = props;
  const meta = (
    <span class="meta mono small" title={item.timestamp}>
      #{item.sequence} {formatTime(item.timestamp)}
    </span>
  );
  switch (item.kind) {
    case 'tool_call':
      return (
        <ToolCallView
          call={item}
          meta={meta}
          live={item.receipt ? undefined : liveCommandOutput(props.live, item.callId)}
          {...(props.sessionId === undefined ? {} : { sessionId: props.sessionId })}
        />
      );
    case 'steering':
      return (
        <li class="item steering" data-kind="steering">
          {meta} <strong>Steering note</strong>
          {item.stageId && <span class="muted"> for {item.stageId}</span>}: <q>{item.content}</q>
        </li>
      );
    case 'validation':
      return (
        <li class="item validation" data-kind="validation">
          {meta} <strong>Validation failed</strong> ({item.phase}, {item.validator}): {item.message}
        </li>
      );
    case 'transition':
      return (
        <li class={`item transition${item.rework ? ' rework' : ''}`} data-kind="transition">
          {meta} <strong>Transition</strong> {item.from} → {item.to ?? `end (${item.end ?? '?'})`}{' '}
          <span class="muted">
            on {item.condition}
            {item.traversal > 1 ? `, ${item.traversal}× taken` : ''}
          </span>
          {item.rework && <span class="badge rework-badge">rework</span>}
        </li>
      );
    case 'inference':
      return (
        <li class={`item inference${item.failure ? ' bad' : ''}`} data-kind="inference">
          {meta}{' '}
          {item.failure ? (
            <>
              <strong>Model call failed</strong> ({item.model}): {item.failure}
            </>
          ) : (
            <>
              <span class="muted">
                Model {item.model}: {item.inputTokens} in / {item.outputTokens} out tokens,{' '}
                {formatDuration(item.latencyMs)}
              </span>
              {item.artifactKind !== undefined ? (
                <span class="muted"> — answered with the {item.artifactKind} below</span>
              ) : (
                item.text && <span class="model-text"> — {item.text.slice(0, 200)}</span>
              )}
            </>
          )}
          {props.sessionId !== undefined && item.requestId !== '' && (
            <ModelCallContext sessionId={props.sessionId} requestId={item.requestId} />
          )}
        </li>
      );
    case 'lifecycle':
      return (
        <li class={`item lifecycle tone-${item.tone}`} data-kind={item.type}>
          {meta} <strong>{item.label}</strong>
          {item.detail && <span>: {item.detail}</span>}
        </li>
      );
    case 'artifact':
      return (
        <li class="item artifact-item" data-kind="artifact" data-artifact-kind={item.artifactKind}>
          {meta} <strong>{item.artifactKind}</strong>{' '}
          <span class={`badge ${item.accepted ? 'outcome-completed' : ''}`}>
            {item.accepted ? 'accepted' : 'proposed'}
          </span>
          <ArtifactView body={item.body} />
        </li>
      );
    case 'check':
      return (
        <li class={`item check ${item.passed ? '' : 'bad'}`} data-kind="check">
          {meta} <strong>Check {item.name}</strong> <code>$ {visibleText(item.command)}</code>{' '}
          <span class={`badge ${item.passed ? 'outcome-completed' : 'outcome-failed'}`}>
            {item.passed
              ? 'passed'
              : item.exitCode === null
                ? item.outcome
                : `failed, exit ${item.exitCode}`}
          </span>
          {!item.passed && item.output && (
            <pre class="output" aria-label={`Output of ${item.name}`}>
              {item.output.slice(0, 4_000)}
            </pre>
          )}
        </li>
      );
    case 'other':
      return (
        <li class="item other" data-kind={item.type}>
          {meta}{' '}
          <span class="muted" title={item.type}>
            {eventLabel(item.type)}
          </span>
        </li>
      );
  }
}

function verdictClass(verdict: string | undefined): string {
  return verdict ? `verdict-${verdict.toLowerCase()}` : '';
}

/**
 * The assessment's verdict; a call that waits for a person is never shown as a green ALLOW (an
 * ALLOW verdict at an asking tier is exactly what waits): it reads "asks" until someone decides.
 */
export function VerdictBadge(props: { verdict: string; waiting: boolean }) {
  const shown = shownVerdict(props.verdict, props.waiting);
  return <span class={`badge ${verdictClass(shown)}`}>{shown}</span>;
}

function ToolCallView(props: {
  call: ToolCallItem;
  meta: preact.JSX.Element;
  /** What the call prints while it runs, until its receipt replaces it. */
  live?: string | undefined;
  sessionId?: string;
}) {
  const { call } = props;
  const approval = call.approval;
  // The body is built only once opened: a long timeline holds summaries, not every output.
  const [open, setOpen] = useState(false);
  const command = call.tool === 'exec' ? execCommandLine(call.argsRaw) : undefined;
  return (
    <li class="item tool-call" data-kind="tool_call" data-call-id={call.callId}>
      <details onToggle={(event) => setOpen(event.currentTarget.open)}>
        <summary>
          {props.meta}{' '}
          {command === undefined ? (
            <strong class="mono">{call.tool}</strong>
          ) : (
            <code class="command" data-testid="exec-command">
              $ {visibleText(command)}
            </code>
          )}
          {call.assessment && (
            <>
              {' '}
              <VerdictBadge
                verdict={call.assessment.verdict}
                waiting={approval?.state === 'pending'}
              />
              <span class="badge tier">{call.assessment.tier}</span>
            </>
          )}
          {call.rejection && (
            <span class="badge verdict-block">rejected: {call.rejection.reason}</span>
          )}
          {approval && (
            <span class={`badge approval-${approval.state}`}>
              {approval.state === 'pending'
                ? `waiting for approval (${approval.tier})`
                : `${approval.state}`}
              {approval.by ? ` by ${approval.by}` : ''}
            </span>
          )}
          {call.receipt &&
            (command !== undefined && call.receipt.exitCode !== null ? (
              <span
                class={`badge ${call.receipt.exitCode === 0 ? 'outcome-succeeded' : 'outcome-failed'}`}
              >
                exit {call.receipt.exitCode}
              </span>
            ) : (
              <span class={`badge outcome-${call.receipt.outcome}`}>{call.receipt.outcome}</span>
            ))}
        </summary>
        {open && (
          <div class="call-body">
            <pre class="args" aria-label="Arguments">
              {prettyArgs(call.argsRaw)}
            </pre>
            {call.rejection && <p class="error">{call.rejection.message}</p>}
            {call.assessment && call.assessment.targets.length > 0 && (
              <ul class="targets" aria-label="Resolved paths">
                {call.assessment.targets.map((target) => (
                  <li key={target.param + target.raw}>
                    {target.write ? 'writes' : 'reads'}{' '}
                    <span class="mono">{visibleText(target.realPath ?? target.resolved)}</span>
                  </li>
                ))}
              </ul>
            )}
            {call.assessment && call.assessment.findings.length > 0 && (
              <ul class="findings" aria-label="Rule findings">
                {call.assessment.findings.map((finding) => (
                  <li key={finding.ruleId + finding.code} class={`finding-${finding.severity}`}>
                    <span class="badge">{finding.severity}</span> {finding.ruleId}:{' '}
                    {finding.message}
                  </li>
                ))}
              </ul>
            )}
            {approval?.decisionReason && <p>Reason: {approval.decisionReason}</p>}
            {props.sessionId !== undefined && (
              <ForkAction
                sessionId={props.sessionId}
                at={`call:${call.callId}`}
                what={`before call ${call.callId} was proposed`}
              />
            )}
            {call.change && <DiffView change={call.change} />}
            {call.receipt && (
              <>
                <p class="muted small">
                  {command === undefined &&
                    call.receipt.exitCode !== null &&
                    `exit ${call.receipt.exitCode} · `}
                  {formatDuration(call.receipt.durationMs)}
                  {call.receipt.error &&
                    !(command !== undefined && /^exit code -?\d+$/.test(call.receipt.error)) &&
                    ` · ${call.receipt.error}`}
                </p>
                {call.receipt.output && (
                  <pre class="output" aria-label="Output">
                    {visibleLines(call.receipt.output.slice(0, 4_000))}
                    {call.receipt.truncated || call.receipt.output.length > 4_000 ? '\n…' : ''}
                  </pre>
                )}
              </>
            )}
          </div>
        )}
      </details>
      {props.live !== undefined && (
        <pre class="output streaming" aria-label="Output so far" data-testid="live-output">
          {props.live.length > LIVE_SHOWN_CHARS ? '…' : ''}
          {visibleLines(props.live.slice(-LIVE_SHOWN_CHARS))}
        </pre>
      )}
    </li>
  );
}
