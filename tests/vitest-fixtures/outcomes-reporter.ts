// The reporter of the vitest of tests/vitest-fixtures/ that tests/vitest-entry.test.ts runs, instead
// of the JSON one, which has no field for the reason a test gives context.skip. It writes to the file
// OUTCOMES_FILE names, as JSON, each test: the describe blocks it is in, its name, its state, and
// its skip note or the messages of its errors.
import { writeFileSync } from 'node:fs'
import type { Reporter, TestCase, TestModule } from 'vitest/node'

export interface TestOutcome {
  suites: string[]
  name: string
  state: 'passed' | 'failed' | 'skipped' | 'pending'
  note?: string
  errors?: string[]
}

function suitesOf(test: TestCase): string[] {
  const suites: string[] = []
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) suites.unshift(parent.name)
  return suites
}

/** The errors of the suites a test is in (a beforeAll that threw: the adapter did not start). */
function suiteErrorsOf(test: TestCase): string[] {
  const errors: string[] = []
  for (let parent = test.parent; parent.type === 'suite'; parent = parent.parent) errors.push(...parent.errors().map((error) => error.message))
  return errors
}

function outcomeOf(test: TestCase): TestOutcome {
  const result = test.result()
  const outcome: TestOutcome = { suites: suitesOf(test), name: test.name, state: result.state }
  if (result.state === 'skipped' && result.note !== undefined) outcome.note = result.note
  const errors = [...(result.errors ?? []).map((error) => error.message), ...suiteErrorsOf(test)]
  if (errors.length > 0) outcome.errors = errors
  return outcome
}

export default class OutcomesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const outcomes = testModules.flatMap((testModule) => [...testModule.children.allTests()].map(outcomeOf))
    writeFileSync(process.env.OUTCOMES_FILE!, JSON.stringify(outcomes))
  }
}
