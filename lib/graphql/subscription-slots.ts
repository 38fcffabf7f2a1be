// The places SUBSCRIPTIONS_PER_TOKEN (and WEB_CLIENT_SUBSCRIPTIONS_PER_ADDRESS) count, and a second,
// independent count of the subscribers that follow a live execution. A slot is freed exactly once,
// however many ways its subscription ends at once (the database gone, the client gone, the token
// revoked, the server stopping): a slot freed twice would let a holder over its limit, a slot never
// freed refuses it for good (issue 43: after a database restart every token stayed "full" with
// nobody subscribed). The two counts make that visible: open slots above live subscribers for
// longer than a subscription takes to start are slots nobody will free (/ready, /metrics).
import { liveSubscriptions, openSubscriptions } from "../ops/metrics.ts";

export interface SubscriptionSlot {
  /** Gives the place back; any call after the first does nothing. */
  free(): void;
}

export interface SubscriptionCensus {
  /** Slots held: subscriptions counted against their holder's limit. */
  open: number;
  /** Subscribers following a live execution (a slot being taken or freed is not one, for a moment). */
  live: number;
}

/** Marks the subscriber's execution ended; any call after the first does nothing. */
export type EndOfFollowing = () => void;

export class SubscriptionSlots {
  /** Slots held by holder (SubscriptionHolder's key). */
  private readonly byHolder = new Map<string, number>();
  private open = 0;
  private live = 0;

  /** The slots `holder` holds. */
  heldBy(holder: string): number {
    return this.byHolder.get(holder) ?? 0;
  }

  /** A slot for `holder`, or undefined when it already holds `limit`. */
  take(holder: string, limit: number): SubscriptionSlot | undefined {
    const held = this.heldBy(holder);
    if (held >= limit) return undefined;
    this.byHolder.set(holder, held + 1);
    this.open += 1;
    openSubscriptions.inc();
    let freed = false;
    return {
      free: () => {
        if (freed) return;
        freed = true;
        this.open -= 1;
        openSubscriptions.dec();
        const left = this.heldBy(holder) - 1;
        if (left > 0) this.byHolder.set(holder, left);
        else this.byHolder.delete(holder);
      },
    };
  }

  /** A subscriber now follows a live execution, until the returned function is called. */
  following(): EndOfFollowing {
    this.live += 1;
    liveSubscriptions.inc();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.live -= 1;
      liveSubscriptions.dec();
    };
  }

  census(): SubscriptionCensus {
    return { open: this.open, live: this.live };
  }
}
