import type { EventDto } from '../../../src/interfaces/protocol/event-dto.js';
import type { Api } from '../api.js';

const PAGE = 1000;

/**
 * Every event recorded so far, in sequence order, over REST: the first page says how many there
 * are, the rest are read in parallel (sequences are gapless from 1). Live events then come over
 * the WebSocket from the last sequence read here, so none is lost or repeated.
 */
export async function loadHistory(api: Api, sessionId: string): Promise<EventDto[]> {
  const first = await api.events(sessionId, 0, PAGE);
  if (first.nextAfter >= first.lastSequence) return first.events;
  const rest: Promise<EventDto[]>[] = [];
  for (let after = first.nextAfter; after < first.lastSequence; after += PAGE)
    rest.push(api.events(sessionId, after, PAGE).then((page) => page.events));
  return [...first.events, ...(await Promise.all(rest)).flat()];
}
