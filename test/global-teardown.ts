export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __stopTestServer?: () => Promise<void> }).__stopTestServer?.();
}
