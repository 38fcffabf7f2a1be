// PostGraphile's PgSubscriber (one LISTEN connection for every subscription of this instance),
// made to end every one of its subscriptions when that connection is lost, as it means to. When
// the connection goes, its resetClient() throws "Underlying pubsub channel interrupted" into each
// topic's iterators, but it loops over a topic's list while each throw removes that iterator from
// the same list, so every second iterator of a topic is skipped (@dataplan/pg 1.1.2): those
// subscriptions (and revocation watchers) then wait for ever on a channel nobody listens to, and a
// client is never told to subscribe again. Here, the first iterator that hears the interruption
// ends all the others that were open with it, and a skipped one is returned, so its listener goes.
import { PgSubscriber } from "postgraphile/adaptors/pg";
import { isConnectionError } from "./availability.ts";

/** The subscriptions opened on one LISTEN connection: they end together when it is lost. */
interface Generation {
  lost: Promise<never>;
  end(error: unknown): void;
}

function newGeneration(): Generation {
  let end!: (error: unknown) => void;
  const lost = new Promise<never>((_, reject) => {
    end = reject;
  });
  lost.catch(() => {}); // read by each iterator's race; nobody need be waiting
  return { lost, end };
}

export class WholePgSubscriber extends PgSubscriber {
  #generation = newGeneration();

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
          return await Promise.race([inner.next(), generation.lost]);
        } catch (error) {
          if (isConnectionError(error) && generation === this.#generation) {
            this.#generation = newGeneration();
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
