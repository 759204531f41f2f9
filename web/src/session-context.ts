import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import type { Api } from './api.js';
import type { SocketHub } from './socket-hub.js';

export type Connection = {
  readonly api: Api;
  readonly hub: SocketHub;
  /** The token was refused: back to the login form with a message. */
  rejected(message: string): void;
};

export const ConnectionContext = createContext<Connection | null>(null);

export function useConnection(): Connection {
  const connection = useContext(ConnectionContext);
  if (!connection) throw new Error('useConnection outside the logged-in page');
  return connection;
}
