import { useEffect, useState } from 'preact/hooks';
import { describeError } from '../api.js';
import { nextRequestId } from '../format.js';
import { useConnection } from '../session-context.js';

type Exchange = {
  requestId: string;
  question: string;
  answer?: string;
  cited?: number[];
  error?: string;
};

/**
 * Two clearly separate inputs: a question for the session's router (normal input, nothing is
 * recorded) and a steering note (recorded in the log; the next context pack carries it).
 */
export function RouterPanel(props: {
  sessionId: string;
  stages: readonly string[];
  final: boolean;
}) {
  const { api, hub } = useConnection();
  const [question, setQuestion] = useState('');
  const [exchanges, setExchanges] = useState<Exchange[]>([]);
  const [note, setNote] = useState('');
  const [stage, setStage] = useState('');
  const [noteState, setNoteState] = useState<{
    busy: boolean;
    message: string | null;
    error: string | null;
  }>({
    busy: false,
    message: null,
    error: null,
  });

  useEffect(
    () =>
      hub.onMessage((message) => {
        if (message.type !== 'router_response' && message.type !== 'error') return;
        const requestId = message.requestId;
        if (requestId === undefined) return;
        setExchanges((old) =>
          old.map((exchange) =>
            exchange.requestId !== requestId
              ? exchange
              : message.type === 'router_response'
                ? { ...exchange, answer: message.answer, cited: message.citedSequences }
                : { ...exchange, error: message.message },
          ),
        );
      }),
    [hub],
  );

  const ask = (event: Event) => {
    event.preventDefault();
    const text = question.trim();
    if (text === '') return;
    const requestId = nextRequestId();
    const sent = hub.send({
      type: 'user_input',
      requestId,
      sessionId: props.sessionId,
      text,
      mode: 'normal',
    });
    setExchanges((old) => [
      ...old,
      sent
        ? { requestId, question: text }
        : { requestId, question: text, error: 'Not connected; try again in a moment.' },
    ]);
    if (sent) setQuestion('');
  };

  const steer = async (event: Event) => {
    event.preventDefault();
    const content = note.trim();
    if (content === '')
      return setNoteState({ busy: false, message: null, error: 'Write the note first.' });
    setNoteState({ busy: true, message: null, error: null });
    try {
      const result = await api.steer(props.sessionId, {
        content,
        ...(stage ? { stageId: stage } : {}),
      });
      const recorded = result.events.at(-1);
      setNote('');
      setNoteState({
        busy: false,
        message: recorded ? `Recorded as event #${recorded.sequence}.` : 'Nothing was recorded.',
        error: null,
      });
    } catch (error) {
      setNoteState({ busy: false, message: null, error: describeError(error) });
    }
  };

  return (
    <section class="panel talk" aria-labelledby="talk-title">
      <h2 id="talk-title">Talk to the session</h2>
      <form class="ask" onSubmit={ask}>
        <label for="router-question">
          <strong>Ask the router</strong>{' '}
          <span class="muted">(a question; it changes nothing)</span>
        </label>
        <textarea
          id="router-question"
          rows={2}
          maxLength={8000}
          value={question}
          onInput={(event) => setQuestion(event.currentTarget.value)}
        />
        <button type="submit">Ask</button>
        {exchanges.length > 0 && (
          <ol class="exchanges" aria-live="polite">
            {exchanges.map((exchange) => (
              <li key={exchange.requestId}>
                <p class="question">You: {exchange.question}</p>
                {exchange.answer !== undefined && (
                  <p class="answer">
                    Router: {exchange.answer}
                    {exchange.cited && exchange.cited.length > 0 && (
                      <span class="muted small">
                        {' '}
                        (events {exchange.cited.map((n) => `#${n}`).join(', ')})
                      </span>
                    )}
                  </p>
                )}
                {exchange.error && <p class="error">{exchange.error}</p>}
                {exchange.answer === undefined && !exchange.error && (
                  <p class="muted">Waiting for the router…</p>
                )}
              </li>
            ))}
          </ol>
        )}
      </form>
      <form class="steer" onSubmit={(event) => void steer(event)}>
        <label for="steering-note">
          <strong>Steering note</strong>{' '}
          <span class="muted">(recorded; the next context pack carries it)</span>
        </label>
        <textarea
          id="steering-note"
          rows={2}
          maxLength={8000}
          value={note}
          disabled={props.final}
          onInput={(event) => setNote(event.currentTarget.value)}
        />
        <label for="steering-stage">For stage</label>
        <select
          id="steering-stage"
          value={stage}
          onChange={(event) => setStage(event.currentTarget.value)}
        >
          <option value="">any stage</option>
          {props.stages.map((id) => (
            <option key={id} value={id}>
              {id}
            </option>
          ))}
        </select>
        <button type="submit" class="steer-button" disabled={noteState.busy || props.final}>
          Send steering note
        </button>
        {props.final && <p class="muted">The session has ended; it takes no more notes.</p>}
        {noteState.message && (
          <p class="notice" role="status">
            {noteState.message}
          </p>
        )}
        {noteState.error && (
          <p class="error" role="alert">
            {noteState.error}
          </p>
        )}
      </form>
    </section>
  );
}
