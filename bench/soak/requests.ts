// Every GraphQL request over HTTP the soak makes (reads and writes), with when it ended, its kind,
// its HTTP status (0: no answer) and latency, kept so that the report can tell requests inside a
// fault's window from those outside it once the windows are known. A few numbers per request: an
// hour at about 100 requests a second is some 10 MB.
export interface Answer {
  status: number;
  body: { data?: Record<string, unknown> | null; errors?: Array<{ message: string; extensions?: { code?: string } }> };
}

export class RequestLog {
  readonly kinds: string[] = [];
  /** Per request: Date.now() at its end, kind index, status, latency in ms, and 1 when a 200 held a GraphQL error. */
  readonly endedAt: number[] = [];
  readonly kind: number[] = [];
  readonly status: number[] = [];
  readonly latency: number[] = [];
  readonly graphqlError: number[] = [];
  /** The first few GraphQL error messages per kind (to say what went wrong). */
  readonly errorSamples = new Map<string, Set<string>>();

  readonly url: string;
  private readonly timeoutMs: number;

  constructor(url: string, timeoutMs = 30_000) {
    this.url = url;
    this.timeoutMs = timeoutMs;
  }

  /** POSTs a GraphQL request and records it; never throws (no answer is status 0). */
  async post(kind: string, token: string, query: string, variables?: Record<string, unknown>): Promise<Answer> {
    let index = this.kinds.indexOf(kind);
    if (index < 0) index = this.kinds.push(kind) - 1;
    const started = performance.now();
    let answer: Answer;
    try {
      const response = await fetch(this.url, {
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      const text = await response.text();
      let body: Answer["body"] = {};
      try {
        body = JSON.parse(text) as Answer["body"];
      } catch {
        // a 5xx of a proxy or the outage guard may not be JSON
      }
      answer = { status: response.status, body };
    } catch {
      answer = { status: 0, body: {} };
    }
    this.endedAt.push(Date.now());
    this.kind.push(index);
    this.status.push(answer.status);
    this.latency.push(performance.now() - started);
    const failed = answer.status === 200 && (answer.body.errors?.length ?? 0) > 0;
    this.graphqlError.push(failed ? 1 : 0);
    if (failed) {
      const samples = this.errorSamples.get(kind) ?? new Set();
      if (samples.size < 3) samples.add(answer.body.errors![0].message.slice(0, 200));
      this.errorSamples.set(kind, samples);
    }
    return answer;
  }

  get size(): number {
    return this.endedAt.length;
  }
}
