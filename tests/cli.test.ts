// conformance/cli.ts, the process around a command: what the exit status is when an in-process adapter
// ends the process, and when a reader stops reading (`| head`) before the command is done (from an audit
// of every command's exit statuses, which found compare and fuzz exiting 0 in both cases); outputs
// written to /dev/stdout, and a standard output that cannot be written (from a review of interrupts and
// closed streams).
import { spawn, spawnSync } from 'node:child_process'
import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { projectRoot } from '../conformance/vector-cases.ts'
import { CLI, runCli } from './support/cli.ts'

const MODULE = 'tests/fakes/module-misbehaviours.ts'
const scratch = mkdtempSync(join(tmpdir(), 'cli-process-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

/** An input of surface that the reference answers, for compare. */
function surfaceInput(): string {
  const path = join(scratch, 'surface.json')
  writeFileSync(path, JSON.stringify({ events: [{ type: 'user/message', seq: 0, time: 1, data: { id: 'u0', role: 'user', content: [], source: { kind: 'user' } }, surfaceOp: 'append' }] }))
  return path
}

describe('an in-process adapter that ends the process with process.exit(0)', () => {
  it('fails run (as documented, for contrast)', async () => {
    const ended = await runCli(['run', '--adapter-module', MODULE, '--case', 'surf-order-append-only-surface'], { MODULE_MISBEHAVIOUR: 'exit-at-once' })
    expect(ended.code).toBe(1)
  })

  // It ended the process mid-answer: compare must not read as "the adapter agrees with the reference".
  it('fails compare', async () => {
    const ended = await runCli(['compare', '--adapter-module', MODULE, '--operation', 'surface', surfaceInput()], { MODULE_MISBEHAVIOUR: 'exit-at-once' })
    expect(ended.code).toBe(1)
    expect(ended.stderr).toContain('dsh-conformance: the process ended before the run finished')
  })

  // Nor fuzz as "no disagreement was found", with no summary written.
  it('fails fuzz', async () => {
    const ended = await runCli(['fuzz', '--adapter-module', MODULE, '--runs', '3', '--out', join(scratch, 'fuzz-exit')], { MODULE_MISBEHAVIOUR: 'exit-at-once' })
    expect(ended.code).toBe(1)
    expect(ended.stderr).toContain('dsh-conformance: the process ended before the run finished')
  })
})

/** Runs the CLI with stdout read until its first chunk, then closed, as `| head -1` does: the exit status. */
function exitWithStdoutClosedEarly(args: readonly string[]): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', [...CLI, ...args], { cwd: projectRoot, stdio: ['ignore', 'pipe', 'ignore'] })
    child.stdout.once('data', () => child.stdout.destroy())
    child.on('error', reject)
    child.on('close', (code) => resolve(code))
  })
}

describe('a reader that stops reading', () => {
  // The pipe closes between two adapters, and the command goes on to its end (the exit handler once
  // exited there with status 0, writing no report). The first adapter is a subprocess, the reference
  // behind serve, so that its start is truly asynchronous: the pipe is closed while it starts.
  it('leaves a failing run of several adapters failing (exit 1), not passing', async () => {
    const failing = ['run', '--adapter-cmd', `node ${CLI.join(' ')} serve`, '--adapter', 'dsh-session@0.1.0-rc.6', '--case', 'surf-*']
    expect((await runCli(failing)).code).toBe(1)
    expect(await exitWithStdoutClosedEarly(failing)).toBe(1)
  }, 60_000)

  // The same for compare: an adapter that differs on every input, given three inputs; the pipe closes
  // while input 2 is under way (the adapter answers each run after half a second).
  it('leaves a compare whose adapter differs failing (exit 1), not passing', async () => {
    const adapter = join(scratch, 'wrong-surface.mjs')
    writeFileSync(adapter, `import { createInterface } from 'node:readline'
for await (const line of createInterface({ input: process.stdin })) {
  const m = JSON.parse(line)
  if (m.cmd === 'start') process.stdout.write(JSON.stringify({ protocol: 1, implementation: { name: 'wrong', version: '1', language: 'js' }, profiles: ['reader'], operations: ['surface'] }) + '\\n')
  else if (m.cmd === 'run') await new Promise((resolve) => setTimeout(resolve, 500)), process.stdout.write(JSON.stringify({ seq: m.seq, result: { ok: true, value: { nodes: [], replacements: [], generation: 0 } } }) + '\\n')
  else process.exit(0)
}
`)
    const input = surfaceInput()
    const differing = ['compare', '--adapter-cmd', `node ${adapter}`, '--operation', 'surface', input, input, input]
    expect((await runCli(differing)).code).toBe(1)
    expect(await exitWithStdoutClosedEarly(differing)).toBe(1)
  }, 60_000)
})

describe('outputs written to /dev/stdout', () => {
  // A pipe to the next command: --write-baseline once read its own pipe as the previous baseline and
  // waited for ever; a report was renamed over the name /dev/stdout leads to (ENOENT on a pipe).
  it('writes a baseline and a report through the pipe, and the summary to stderr, and ends', async () => {
    const run = await runCli(['run', '--case', 'surf-order-append-only-surface', '--write-baseline', '/dev/stdout', '--report', 'md=/dev/stdout'])
    expect(run.stdout).toMatch(/^adapter: reference$/m)
    expect(run.stdout).toMatch(/^# /m)
    expect(run.stdout).not.toContain('wrote /dev/stdout')
    expect(run.stderr).toContain('wrote /dev/stdout')
    expect(run.code).toBe(0)
  }, 60_000)

  it('leaves stdout to a JSON report written there, so that a pipe reads JSON alone', async () => {
    const run = await runCli(['run', '--case', 'surf-order-append-only-surface', '--report', 'json=/dev/stdout'])
    expect(JSON.parse(run.stdout)).toMatchObject({ runs: [expect.objectContaining({})] })
    expect(run.stderr).toMatch(/^dsh-session-conformance /m)
    expect(run.code).toBe(0)
  }, 60_000)
})

describe('an output that cannot be written', () => {
  // A full disk: once a stack trace and exit 1, which for check reads as "a log is invalid".
  it('says so in one line and exits 2', () => {
    const full = openSync('/dev/full', 'w')
    try {
      const run = spawnSync('node', [...CLI, 'list', '--case', 'surf-order-*'], { cwd: projectRoot, stdio: ['ignore', full, 'pipe'], encoding: 'utf8' })
      expect(run.stderr).toBe('dsh-conformance: cannot write the output: ENOSPC: no space left on device, write\n')
      expect(run.status).toBe(2)
    } finally {
      closeSync(full)
    }
  })
})
