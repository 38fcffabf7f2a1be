// ESLint over all TypeScript: the recommended rules of ESLint and typescript-eslint, plus the few
// type-aware rules that catch what a server pays for (a promise nobody awaits, an await of a
// non-promise, a promise where a boolean is meant). Layout is Prettier's (npm run format), so no
// rule here is about it. Where a recommended rule is relaxed, the reason is beside it.
import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  {
    ignores: [
      "node_modules/",
      ".data/",
      "coverage/",
      "web/dist/",
      "web/dist.*/",
      "web/src/api/graphql-env.d.ts",
      "test-results/",
      // A person's own throw-away scripts (ignored by git too).
      ".scratch/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/await-thenable": "error",
      "@typescript-eslint/no-misused-promises": ["error", { checksVoidReturn: false }],
      // GraphQL arguments, JSON payloads and pg rows are untyped where they enter; `strict` tsc
      // checks everything past that boundary.
      "@typescript-eslint/no-explicit-any": "off",
      // `declare global { namespace Grafast … }` is how grafast and graphile-config are extended.
      "@typescript-eslint/no-namespace": ["error", { allowDeclarations: true }],
      // A leading underscore names what a signature or a destructuring must take but not use.
      "@typescript-eslint/no-unused-vars": [
        "error",
        { argsIgnorePattern: "^_", varsIgnorePattern: "^_", destructuredArrayIgnorePattern: "^_" },
      ],
    },
  },
  {
    files: ["**/*.cjs"],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      sourceType: "commonjs",
      globals: { require: "readonly", module: "writable" },
    },
    rules: { ...tseslint.configs.disableTypeChecked.rules, "@typescript-eslint/no-require-imports": "off" },
  },
  { files: ["**/*.js"], ...tseslint.configs.disableTypeChecked },
);
