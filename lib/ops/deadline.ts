// A time limit on a promise: probes and scrapes must answer even when the database hangs or a
// pool has no free connection, so they race their query against a timer. The query itself goes
// on and returns its connection to the pool when it ends.
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
