// Mutation testing of the reference interpreter, killed by the golden vectors alone
// (vitest.mutation.config.ts). `npm run mutation` runs it and writes docs/mutation.md.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  plugins: ['@stryker-mutator/vitest-runner', './scripts/stryker-plugins.mjs'],
  ignorers: ['free-text-messages'],
  vitest: { configFile: 'vitest.mutation.config.ts' },
  // Stryker's printer drops the parentheses of `(x as number)++`, so the instrumented file would not
  // parse: the reference writes such increments as an assignment.
  mutate: ['reference/**/*.ts'],
  coverageAnalysis: 'perTest',
  // Three workers on two cores: each spends part of every mutant run waiting on its vitest main thread.
  concurrency: 3,
  timeoutMS: 2_500,
  reporters: ['html', 'json', 'progress', 'run-timer'],
  htmlReporter: { fileName: 'reports/mutation/index.html' },
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
}
