// typescript-eslint, for the rules that need TypeScript's type checker, which Biome (the formatter and every other
// lint rule, biome.jsonc) does not have: a promise left floating (its failure unhandled, or a test's assertion never
// awaited, so that it cannot fail), a promise handed where its result is ignored, an await of what is not a promise.
// One program for every file: test/tsconfig.json includes the sources, tests, benchmarks and scripts.
import tseslint from "typescript-eslint";

export default tseslint.config({
  files: ["{permissions,provider,sdk,emulator,policy,importer,recover,testing,test,bench,scripts}/**/*.ts"],
  languageOptions: { parser: tseslint.parser, parserOptions: { project: "./test/tsconfig.json", tsconfigRootDir: import.meta.dirname } },
  plugins: { "@typescript-eslint": tseslint.plugin },
  linterOptions: { reportUnusedDisableDirectives: "error" },
  rules: {
    "@typescript-eslint/no-floating-promises": "error",
    "@typescript-eslint/no-misused-promises": "error",
    "@typescript-eslint/await-thenable": "error",
    "@typescript-eslint/return-await": ["error", "in-try-catch"],
  },
});
