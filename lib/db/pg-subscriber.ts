// PostGraphile's PgSubscriber (one LISTEN connection for every subscription of this instance),
// made to end every one of its subscriptions when that connection is lost, as it means to. When
// the connection goes, its resetClient() throws "Underlying pubsub channel interrupted" into each
// topic's iterators, but it loops over a topic's list while each throw removes that iterator from
// the same list, so every second iterator of a topic is skipped (@dataplan/pg 1.1.2): those
// subscriptions (and revocation watchers) then wait for ever on a channel nobody listens to, and a
// client is never told to subscribe again. Here, the first iterator that hears the interruption
// ends all the others that were open with it, and a skipped one is returned, so its listener goes.
import { PgSubscriber } from "postgraphile/adaptors/pg";
import { ENDED, Ending } from "../async/ending.ts";
import { isConnectionError } from "./availability.ts";

export class WholePgSubscriber extends PgSubscriber {
  /** The subscriptions opened on the current LISTEN connection: they end together, with its error, when it is lost. */
  #generation = new Ending();

  override subscribe<TTopic extends string | number>(topic: TTopic): AsyncIterableIterator<string> {
    const inner = super.subscribe(topic);
    const generation = this.#generation;
    const close = () => inner.return?.().catch(() => undefined);
    return {
      [Symbol.asyncIterator]() {
        return this;
      },
      next: async () => {
        try {
          const next = await generation.race(inner.next());
          if (next === ENDED) throw generation.reason;
          return next;
        } catch (error) {
          if (isConnectionError(error) && generation === this.#generation) {
            this.#generation = new Ending();
            generation.end(error);
          }
          void close();
          throw error;
        }
      },
      return: async () => {
        await close();
        return { done: true, value: undefined };
      },
      throw: async (error: unknown) => {
        await close();
        throw error;
      },
    };
  }
}
