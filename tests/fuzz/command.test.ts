// conformance/fuzz/command.ts: the user's --out folder or adapter at fault gets a sentence and a status
// of its own, not "3 when the fuzzer itself failed" and a stack (found by an audit of every command's
// exit statuses).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, runCliHere } from '../support/cli.ts'

const scratch = mkdtempSync(join(tmpdir(), 'fuzz-command-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('dsh-conformance fuzz: whose fault the exit status names', () => {
  // The --out folder exists, but fuzz-summary.json cannot be written in it (a folder of that name stands
  // there; a read-only or full disk does the same): the findings are still printed.
  it('exits 2 with one sentence when the summary cannot be written into --out', async () => {
    const out = join(scratch, 'summary-blocked')
    const summary = join(out, 'fuzz-summary.json')
    mkdirSync(summary, { recursive: true })
    const run = await runCliHere(['fuzz', '--adapter', 'reference', '--runs', '2', '--out', out])
    expect(run.stderr).toBe(`cannot write the summary ${summary}: EISDIR: illegal operation on a directory, open '${summary}'\n`)
    expect(run.stdout).toContain('2 runs, ')
    expect(run.code).toBe(2)
  })

  // An interrupted run, or one whose adapter cannot start, once left the last run's summary beside its
  // vectors, describing another seed.
  it('removes an earlier run\'s summary before it starts', async () => {
    const out = join(scratch, 'earlier-summary')
    mkdirSync(out, { recursive: true })
    writeFileSync(join(out, 'fuzz-summary.json'), '{"seed": 7}\n')
    const run = await runCliHere(['fuzz', '--adapter-module', 'conformance/wording.ts', '--runs', '2', '--out', out])
    expect(run.code).toBe(1)
    expect(existsSync(join(out, 'fuzz-summary.json'))).toBe(false)
  })

  // An adapter that hangs on every probe once took hours: a timeout per probe, and per check of each
  // class's shrinking (10 runs: 19.5 minutes). Now the fuzz stops asking it, as run does.
  it('stops asking an adapter that timed out on 10 compared probes in a row, and says so', async () => {
    // In a process of its own: the fake module reads its misbehaviour once, as it is imported.
    const out = join(scratch, 'never-answers')
    const run = await runCli(['fuzz', '--adapter-module', 'tests/fakes/module-misbehaviours.ts', '--runs', '50', '--timeout', '200', '--out', out], { MODULE_MISBEHAVIOUR: 'never-answers' })
    expect(run.stdout).toMatch(/^\d+ of 50 runs \(stopped: the adapter crashed or timed out on 10 probes in a row\), /m)
    expect(run.code).toBe(1)
    const summary = JSON.parse(readFileSync(join(out, 'fuzz-summary.json'), 'utf8')) as { stoppedByFailures: boolean; stoppedByBudget: boolean; compared: number; findings: { shrinkChecks: number }[] }
    expect(summary).toMatchObject({ stoppedByFailures: true, stoppedByBudget: false, compared: 10 })
    expect(summary.findings.every(finding => finding.shrinkChecks === 0)).toBe(true)
  }, 60_000)

  // The adapter failed, not the fuzzer: run counts the same close() as the adapter's failure too.
  it('exits 1, saying so, when the adapter throws from close() after a clean fuzz', async () => {
    process.env['MODULE_MISBEHAVIOUR'] = 'close-throws'
    try {
      const run = await runCliHere(['fuzz', '--adapter-module', 'tests/fakes/module-misbehaviours.ts', '--runs', '2', '--out', join(scratch, 'close-throws')])
      expect(run.stderr).toBe('the adapter failed as it was closed: close failed in the adapter\n')
      expect(run.code).toBe(1)
    } finally {
      delete process.env['MODULE_MISBEHAVIOUR']
    }
  })
})
