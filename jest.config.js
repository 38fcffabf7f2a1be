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
  testTimeout: 60_000,
};
