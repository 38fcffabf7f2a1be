export default async function globalTeardown(): Promise<void> {
  await (globalThis as { __stopTestCluster?: () => Promise<void> }).__stopTestCluster?.();
}
