// Jest in ESM mode. TypeScript reaches Jest through Node's own type stripping (the same
// transformation `node server.ts` applies), so tests run exactly the code production runs;
// `npm run typecheck` does the type checking.
export default {
  testEnvironment: "node",
  extensionsToTreatAsEsm: [".ts"],
  transform: { "^.+\\.ts$": "<rootDir>/test/helpers/strip-types-transform.cjs" },
  testMatch: ["<rootDir>/test/**/*.test.ts"],
  globalSetup: "<rootDir>/test/global-setup.ts",
  globalTeardown: "<rootDir>/test/global-teardown.ts",
  maxWorkers: 2,
  // In ESM mode every test file loads its modules anew in a fresh VM context, and not all of them
  // are given back: a worker that ran ~60 files reached Node's 4 GB heap on CI, spent seconds per
  // garbage collection (a beforeAll timed out) and then crashed. A worker that holds more than
  // this after a file is replaced by a fresh one before the next.
  workerIdleMemoryLimit: "1GB",
  testTimeout: 60_000,
};
