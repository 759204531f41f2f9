import { CorrexError } from '../base/correx-error.js';

/** A store was used after `close()`. */
export class StoreClosedError extends CorrexError {
  constructor(store: string) {
    super('store_closed', `${store} is closed`);
  }
}
