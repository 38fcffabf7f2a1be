// Polling for something the service does in the background (a worker job, a delivery, a mail).

/** Calls `probe` until `done` accepts its value, and returns that value; fails after `timeoutMs`. */
export async function waitUntil<T>(
  probe: () => T | Promise<T>,
  done: (value: T) => boolean,
  what: string,
  timeoutMs = 15_000,
): Promise<T> {
  for (const deadline = Date.now() + timeoutMs; ;) {
    const value = await probe();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}; last: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
