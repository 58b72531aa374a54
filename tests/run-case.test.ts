// Running a case against an in-process adapter (conformance/run-case.ts): an operation that never
// answers is a timeout error, and a reply the runner cannot inspect, a reply that is no operation result
// and a throw are errors of their step; the run goes on with the next case. A case that needs what the
// adapter lacks is skipped, saying what it lacks. A module that exports no adapter, or claims a profile
// the suite does not know, is refused. An operation that returns after the timeout is a timeout too,
// and one that never gives control back ends the process, saying what hung.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import type { Adapter, AdapterResult, Operation } from '../conformance/adapter.ts'
import { adapterFromModule, MOST_HOMEPAGE_CHARACTERS, MOST_NAME_CHARACTERS, runAdapter } from '../conformance/adapter-runs.ts'
import { runFails } from '../conformance/results.ts'
import { runCase } from '../conformance/run-case.ts'
import { CRASHES_IN_A_ROW_TO_STOP, runSuite } from '../conformance/suite.ts'
import { AdapterFailure } from '../conformance/adapter-process.ts'
import { projectRoot, type VectorCase } from '../conformance/vector-cases.ts'

// Long enough that a call which must answer in time does so on a busy machine (the time until an
// operation returns counts as well as the time its promise takes).
const SHORT_TIMEOUT_MS = 250

function surfaceCase(id: string): VectorCase {
  return {
    id, title: id, file: 'tests/run-case.test.ts', chapter: '05-surface', requirements: ['SURF-6'], profile: 'reader', review: false,
    steps: [{ operation: 'surface', input: { events: [] }, expect: { value: { nodes: [] } } }],
  }
}

/** An adapter whose surface answers each case as `answers` says, by case id. */
function adapterAnswering(answers: Record<string, () => ReturnType<Operation>>): Adapter {
  return {
    meta: { name: 'fake', version: '0', language: 'typescript', profiles: ['reader'] },
    operations: { surface: (_input, context) => answers[context!.caseId]!() },
  }
}

const correct = (): ReturnType<Operation> => ({ ok: true, value: { nodes: [] } })

function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable({}, {})
  revoke()
  return proxy
}

const activeTimers = (): number => process.getActiveResourcesInfo().filter((resource) => resource === 'Timeout').length

describe('the case and step an operation is told', () => {
  it('are the vector\'s, and none for a case that stands for no vector (compare\'s input), as the protocol has it', async () => {
    const told: unknown[] = []
    const adapter: Adapter = {
      meta: { name: 'listening', version: '0', language: 'typescript', profiles: ['reader'] },
      operations: { surface: (_input, context) => { told.push(context); return correct() } },
    }
    expect((await runCase(adapter, surfaceCase('a-vector'))).status).toBe('pass')
    expect((await runCase(adapter, surfaceCase('compare'), { fromNoVector: true })).status).toBe('pass')
    expect(told).toEqual([{ caseId: 'a-vector', step: 0 }, undefined])
  })
})

describe('an in-process operation that never answers', () => {
  it('is a timeout error of its step, and the next case runs', async () => {
    const adapter = adapterAnswering({ hangs: () => new Promise(() => {}), answers: correct })
    const outcomes = await runSuite(adapter, [surfaceCase('hangs'), surfaceCase('answers')], undefined, { timeoutMs: SHORT_TIMEOUT_MS })
    expect(outcomes.map(({ id, status, step, reason }) => ({ id, status, step, reason }))).toEqual([
      { id: 'hangs', status: 'error', step: 0, reason: `timeout: no reply to surface (hangs step 0) within ${SHORT_TIMEOUT_MS} ms` },
      { id: 'answers', status: 'pass', step: undefined, reason: undefined },
    ])
  })

  it('leaves no timer behind once the operation has answered', async () => {
    const before = activeTimers()
    const outcome = await runCase(adapterAnswering({ answers: correct }), surfaceCase('answers'), { timeoutMs: 60_000 })
    expect(outcome.status).toBe('pass')
    expect(activeTimers()).toBe(before)
  })

  it('gets the run timeout (--timeout) through runAdapter, for a module adapter', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-case-'))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))
    const path = join(dir, 'hanging-adapter.mjs')
    writeFileSync(path, `export default {
  meta: { name: 'hanging', version: '0', language: 'javascript', profiles: ['reader'] },
  operations: { surface: () => new Promise(() => {}) },
}\n`)
    const run = await runAdapter({ kind: 'module', path }, [surfaceCase('hangs')], SHORT_TIMEOUT_MS)
    expect(run.outcomes.map((outcome) => outcome.reason)).toEqual([`timeout: no reply to surface (hangs step 0) within ${SHORT_TIMEOUT_MS} ms`])
  })

  it('refuses through runAdapter a module whose claim names a profile the suite does not know, running no case', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'run-case-'))
    afterAll(() => rmSync(dir, { recursive: true, force: true }))
    const path = join(dir, 'misclaiming-adapter.mjs')
    // It claims reader too, so that without the check of its claim the case would run.
    writeFileSync(path, `export const calls = { surface: 0 }
export const adapter = {
  meta: { name: 'misclaiming', version: '0', language: 'javascript', profiles: ['reader', 'Reader'] },
  operations: { surface: () => { calls.surface += 1; return { ok: true, value: { nodes: [] } } } },
}\n`)
    const run = await runAdapter({ kind: 'module', path }, [surfaceCase('claimed')], SHORT_TIMEOUT_MS)
    expect(run).toMatchObject({ outcomes: [], startError: expect.stringMatching(/unknown profile\(s\) Reader/) })
    expect(runFails(run, false)).toBe(true)
    expect(((await import(pathToFileURL(path).href)) as { calls: { surface: number } }).calls.surface).toBe(0)
  })
})

describe('an in-process operation that keeps control', () => {
  /** Runs `body` (JavaScript, with runSuite, runCase and a surfaceCase builder in scope) in a child process. */
  function runInChild(body: string): ReturnType<typeof spawnSync> {
    const dir = mkdtempSync(join(tmpdir(), 'run-case-'))
    try {
      const script = join(dir, 'child.mjs')
      writeFileSync(script, `import { runSuite } from ${JSON.stringify(join(projectRoot, 'conformance/suite.ts'))}
import { runCase } from ${JSON.stringify(join(projectRoot, 'conformance/run-case.ts'))}
const surfaceCase = id => ({ id, title: id, file: 'child.mjs', chapter: '05-surface', requirements: ['SURF-6'], profile: 'reader', review: false,
  steps: [{ operation: 'surface', input: { events: [] }, expect: { value: { nodes: [] } } }] })
${body}\n`)
      return spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }

  /** Ended by the watchdog: killed (on Windows, a kill is exit status 1, with no signal). */
  function endedByWatchdog(child: ReturnType<typeof spawnSync>): boolean {
    return process.platform === 'win32' ? child.status === 1 : child.signal === 'SIGKILL'
  }

  it('is a timeout error of its step when it returns after the timeout, and the next case runs', async () => {
    const busy = (): ReturnType<Operation> => {
      const until = performance.now() + 4 * SHORT_TIMEOUT_MS
      while (performance.now() < until);
      return correct()
    }
    const outcomes = await runSuite(adapterAnswering({ slow: busy, answers: correct }), [surfaceCase('slow'), surfaceCase('answers')], undefined, { timeoutMs: SHORT_TIMEOUT_MS })
    expect(outcomes.map(({ id, status }) => [id, status])).toEqual([['slow', 'error'], ['answers', 'pass']])
    expect(outcomes[0]?.reason).toMatch(new RegExp(`^timeout: surface \\(slow step 0\\) returned after \\d+ ms, past the timeout of ${SHORT_TIMEOUT_MS} ms$`))
  })

  it('never returning (a synchronous loop), ends the process after twice the timeout, saying what hung', () => {
    const started = performance.now()
    const child = runInChild(`const adapter = { meta: { name: 'spins', version: '0', language: 'javascript', profiles: ['reader'] },
  operations: { surface: () => { for (;;); } } }
await runSuite(adapter, [surfaceCase('spins')], undefined, { timeoutMs: 200 })
console.log('the run went on')`)
    expect(endedByWatchdog(child)).toBe(true)
    expect(child.stdout).toBe('')
    expect(child.stderr).toContain('dsh-conformance: the in-process adapter has not returned from surface (spins step 0) in 1200 ms (its timeout is 200 ms).')
    expect(child.stderr).toContain('Run the adapter as a subprocess (--adapter-cmd)')
    // The process start and tsx take a second or two; the watchdog 1.2 s more; a hang would take the spawn's 60 s.
    expect(performance.now() - started).toBeLessThan(30_000)
  }, 60_000)

  it('is watched on its own while another call overlaps it: the other\'s return does not disarm it', () => {
    const child = runInChild(`const adapter = { meta: { name: 'late-spin', version: '0', language: 'javascript', profiles: ['reader'] },
  operations: { surface: (input, context) => context.caseId === 'quick' ? { ok: true, value: { nodes: [] } }
    : new Promise(() => { setTimeout(() => { for (;;); }, 100) }) } }
await Promise.all([runCase(adapter, surfaceCase('spins-later'), { timeoutMs: 200 }), runCase(adapter, surfaceCase('quick'), { timeoutMs: 200 })])
console.log('the run went on')`)
    expect(endedByWatchdog(child)).toBe(true)
    expect(child.stderr).toContain('has not returned from surface (spins-later step 0)')
  }, 60_000)

  it('is held to the timeout from the call on, for an async function that works before its first await', async () => {
    const busyThenAsync = async (): Promise<AdapterResult> => {
      const until = performance.now() + 2 * SHORT_TIMEOUT_MS
      while (performance.now() < until);
      await Promise.resolve()
      return correct()
    }
    const outcome = await runCase(adapterAnswering({ slow: busyThenAsync }), surfaceCase('slow'), { timeoutMs: SHORT_TIMEOUT_MS })
    expect(outcome.status).toBe('error')
    expect(outcome.reason).toMatch(/^timeout: surface \(slow step 0\) returned after \d+ ms, past the timeout of 250 ms$/)
  })

  it('calls each operation as a method of the operations, so that an adapter object may use this', async () => {
    class Operations {
      private readonly nodes: number[] = []
      surface(): ReturnType<Operation> {
        return { ok: true, value: { nodes: this.nodes } }
      }
    }
    const adapter = { meta: { name: 'methods', version: '0', language: 'typescript', profiles: ['reader'] }, operations: new Operations() } as unknown as Adapter
    expect((await runCase(adapter, surfaceCase('uses-this'))).status).toBe('pass')
  })

  it('keeps the watchdog within a timer\'s longest wait at the longest timeout', () => {
    const child = runInChild(`const adapter = { meta: { name: 'slow', version: '0', language: 'javascript', profiles: ['reader'] },
  operations: { surface: () => new Promise(resolve => setTimeout(() => resolve({ ok: true, value: { nodes: [] } }), 300)) } }
const outcomes = await runSuite(adapter, [surfaceCase('waits')], undefined, { timeoutMs: 2147483647 })
console.log(outcomes.map(outcome => outcome.status).join())`)
    expect([child.status, child.signal, child.stdout]).toEqual([0, null, 'pass\n'])
  }, 60_000)

  it('is not watched in a process paused in a debugger (its inspector open): a late return is a timeout, no end', () => {
    const child = runInChild(`import inspector from 'node:inspector'
inspector.open(0, '127.0.0.1')
const spin = () => { const until = performance.now() + 1500; while (performance.now() < until); return { ok: true, value: { nodes: [] } } }
const adapter = { meta: { name: 'spins', version: '0', language: 'javascript', profiles: ['reader'] }, operations: { surface: spin } }
const outcomes = await runSuite(adapter, [surfaceCase('spins')], undefined, { timeoutMs: 200 })
inspector.close()
console.log(outcomes.map(outcome => outcome.status).join())`)
    expect([child.status, child.signal, child.stdout]).toEqual([0, null, 'error\n'])
  }, 60_000)

  it('is not watched once it has returned: the watchdog neither ends nor holds the process', () => {
    const child = runInChild(`const adapter = { meta: { name: 'quick', version: '0', language: 'javascript', profiles: ['reader'] },
  operations: { surface: () => ({ ok: true, value: { nodes: [] } }) } }
const outcomes = await runSuite(adapter, [surfaceCase('quick')], undefined, { timeoutMs: 200 })
await new Promise(resolve => setTimeout(resolve, 1500))
console.log(outcomes.map(outcome => outcome.status).join())`)
    expect([child.status, child.signal, child.stdout]).toEqual([0, null, 'pass\n'])
  }, 60_000)
})

describe('a reply the runner cannot inspect', () => {
  const cannotBeCompared = /^surface: the reply's value cannot be compared: /

  it.each([
    ['a revoked proxy as the value', (): ReturnType<Operation> => ({ ok: true, value: revokedProxy() })],
    ['a revoked proxy inside the value', (): ReturnType<Operation> => ({ ok: true, value: { nodes: revokedProxy() } })],
    ['a getter that throws', (): ReturnType<Operation> => ({ ok: true, value: { get nodes(): never { throw new Error('lazy generation failed') } } })],
    ['a revoked proxy as the result', (): ReturnType<Operation> => revokedProxy() as ReturnType<Operation>],
  ])('%s is an error of its step, and the next case runs', async (_name, answer) => {
    const outcomes = await runSuite(adapterAnswering({ uninspectable: answer, answers: correct }), [surfaceCase('uninspectable'), surfaceCase('answers')])
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['error', 'pass'])
    expect(outcomes[0]).toMatchObject({ step: 0, operation: 'surface', reason: expect.stringMatching(cannotBeCompared) })
  })

  it('names what went wrong', async () => {
    const outcome = await runCase(adapterAnswering({ getter: () => ({ ok: true, value: { get nodes(): never { throw new Error('lazy generation failed') } } }) }), surfaceCase('getter'))
    expect(outcome.reason).toBe("surface: the reply's value cannot be compared: lazy generation failed")
  })
})

describe('a reply that is no operation result', () => {
  // None of these is an operation result (spec/00-processing.md); judged as one, `{ok: true}` would pass
  // a step that expects acceptance.
  it.each([
    ['ok without a value', (): unknown => ({ ok: true })],
    ['a bare value', (): unknown => ({ nodes: [] })],
    ['a rejection without a code', (): unknown => ({ ok: false, error: { seq: 0 } })],
    // A rejection's place is a number and its message a string (one of another number is judged).
    ['a rejection at a seq that is a string', (): unknown => ({ ok: false, error: { code: 'SURFACE_REPLACE_REVERSED', seq: '3' } })],
    ['a rejection at a line that is an object', (): unknown => ({ ok: false, error: { code: 'SURFACE_REPLACE_REVERSED', line: { at: 2 } } })],
    ['a rejection whose message is no string', (): unknown => ({ ok: false, error: { code: 'SURFACE_REPLACE_REVERSED', message: 5 } })],
    ['nothing', (): unknown => undefined],
  ])('%s is an error of its step, never a pass', async (_name, answer) => {
    const accepting: VectorCase = { ...surfaceCase('odd'), steps: [{ operation: 'surface', input: { events: [] }, expect: { accept: true } }] }
    const outcome = await runCase(adapterAnswering({ odd: answer as () => ReturnType<Operation> }), accepting)
    expect(outcome).toMatchObject({ status: 'error', step: 0, operation: 'surface', reason: expect.stringMatching(/^surface returned no operation result: /) })
  })
})

describe('a rejection whose seq or line is null', () => {
  // An in-process adapter's null says there is none, as over the protocol (spec/adapter-protocol.md).
  const rejecting = (place: { seq?: number | null; line?: number | null }): VectorCase => ({
    ...surfaceCase('null'), steps: [{ operation: 'surface', input: { events: [] }, expect: { reject: { code: 'SURFACE_REPLACE_REVERSED', ...place } } }],
  })
  const nullPlaces = adapterAnswering({ null: () => ({ ok: false, error: { code: 'SURFACE_REPLACE_REVERSED', seq: null, line: null } }) })

  it('passes where the vector expects none', async () => {
    expect(await runCase(nullPlaces, rejecting({ seq: null, line: null }))).toMatchObject({ status: 'pass' })
  })

  it('fails where the vector expects one, saying there is none', async () => {
    expect(await runCase(nullPlaces, rejecting({ seq: 3 }))).toMatchObject({ status: 'fail', reason: 'step 0 (surface): expected SURFACE_REPLACE_REVERSED at seq 3, got no seq' })
    expect(await runCase(nullPlaces, rejecting({ line: 2 }))).toMatchObject({ status: 'fail', reason: 'step 0 (surface): expected SURFACE_REPLACE_REVERSED at line 2, got no line' })
  })
})

describe('a rejection that is no plain object', () => {
  const rejecting = (place: { seq?: number | null }): VectorCase => ({
    ...surfaceCase('odd'), steps: [{ operation: 'surface', input: { events: [] }, expect: { reject: { code: 'SURFACE_REPLACE_REVERSED', ...place } } }],
  })

  it('is read member by member, its getters and an Error\'s own message included', async () => {
    class Rejection {
      get code(): string { return 'SURFACE_REPLACE_REVERSED' }
      get seq(): number { return 3 }
    }
    const fromClass = adapterAnswering({ odd: () => ({ ok: false, error: new Rejection() as unknown as { code: string } }) })
    expect(await runCase(fromClass, rejecting({ seq: 3 }))).toMatchObject({ status: 'pass' })
    const fromError = adapterAnswering({ odd: () => ({ ok: false, error: Object.assign(new Error('start 5 is on no surface'), { code: 'SURFACE_REPLACE_START_NOT_FOUND' }) }) })
    expect(await runCase(fromError, rejecting({ seq: null }))).toMatchObject({ status: 'fail', reason: 'step 0 (surface): expected code SURFACE_REPLACE_REVERSED, got SURFACE_REPLACE_START_NOT_FOUND: start 5 is on no surface' })
  })

  it('with another code and no message, says so without an empty quote', async () => {
    for (const error of [{ code: 'SURFACE_OP_INVALID' }, { code: 'SURFACE_OP_INVALID', message: '' }]) {
      const adapter = adapterAnswering({ odd: () => ({ ok: false, error }) })
      expect(await runCase(adapter, rejecting({ seq: null }))).toMatchObject({ status: 'fail', reason: 'step 0 (surface): expected code SURFACE_REPLACE_REVERSED, got SURFACE_OP_INVALID' })
    }
  })

  it('that cannot handle the input (unsupported) fails, quoting what it lacks, and is marked for the run\'s warning', async () => {
    const lacking = adapterAnswering({ odd: () => ({ ok: false, unsupported: 'no zstd decoder' }) })
    expect(await runCase(lacking, rejecting({ seq: null }))).toEqual(expect.objectContaining({
      status: 'fail', step: 0, operation: 'surface', unsupported: true,
      reason: 'step 0 (surface): the implementation cannot handle this input (it answered unsupported): no zstd decoder',
    }))
    // Beside a verdict (the right one here), empty, or no string, it is no operation result: an error,
    // never a pass, as over the protocol.
    const both = adapterAnswering({ odd: () => ({ ok: false, unsupported: 'x', error: { code: 'SURFACE_REPLACE_REVERSED' } }) as unknown as { ok: false; unsupported: string } })
    expect(await runCase(both, rejecting({ seq: null }))).toMatchObject({ status: 'error', reason: expect.stringMatching(/^surface returned no operation result/) })
    const withValue = adapterAnswering({ odd: () => ({ ok: true, value: { nodes: [] }, unsupported: 'x' }) as unknown as { ok: false; unsupported: string } })
    expect(await runCase(withValue, rejecting({ seq: null }))).toMatchObject({ status: 'error' })
    // What it lacks is quoted by its start: every report of the run repeats the reason.
    const long = await runCase(adapterAnswering({ odd: () => ({ ok: false, unsupported: `${'x'.repeat(100_000)} end` }) }), rejecting({ seq: null }))
    expect(long.reason!.length).toBeLessThan(4200)
    expect(long.reason).toMatch(/x… \(\d+ more characters\)$/)
    for (const unsupported of ['', ' \n', 3, null]) {
      const odd = adapterAnswering({ odd: () => ({ ok: false, unsupported }) as unknown as { ok: false; unsupported: string } })
      expect(await runCase(odd, rejecting({ seq: null }))).toMatchObject({ status: 'error', reason: expect.stringMatching(/^surface returned no operation result/) })
    }
  })

  it('with a code spec/errors.md does not list fails, saying so and marking the code for the run\'s warning', async () => {
    const invented = adapterAnswering({ odd: () => ({ ok: false, error: { code: 'NOT_IMPLEMENTED', message: 'surface is not written yet' } }) })
    expect(await runCase(invented, rejecting({ seq: null }))).toMatchObject({
      status: 'fail', step: 0, operation: 'surface', unlistedCode: 'NOT_IMPLEMENTED',
      reason: 'step 0 (surface): expected code SURFACE_REPLACE_REVERSED, got NOT_IMPLEMENTED: surface is not written yet (NOT_IMPLEMENTED is no rejection code of spec/errors.md: no vector expects it, and an input the implementation cannot handle is answered as unsupported, a failure as an error, never as a rejection with a code of its own)',
    })
    // One of the log codes repair writes is no rejection code either; a listed code is marked nowhere.
    const logCode = adapterAnswering({ odd: () => ({ ok: false, error: { code: 'TOOL_OUTCOME_UNKNOWN' } }) })
    expect(await runCase(logCode, rejecting({ seq: null }))).toMatchObject({ status: 'fail', unlistedCode: 'TOOL_OUTCOME_UNKNOWN' })
    const listed = adapterAnswering({ odd: () => ({ ok: false, error: { code: 'SURFACE_OP_INVALID' } }) })
    expect(await runCase(listed, rejecting({ seq: null }))).not.toHaveProperty('unlistedCode')
    // A code of any length is quoted by its start, in the reason and in the mark the warning counts.
    const long = await runCase(adapterAnswering({ odd: () => ({ ok: false, error: { code: `X_${'Y'.repeat(100_000)}` } }) }), rejecting({ seq: null }))
    expect(long.unlistedCode).toMatch(/^X_Y{198}… \(99802 more characters\)$/)
    expect(long.reason!.length).toBeLessThan(1000)
  })
})

describe('an operation that throws', () => {
  it('is an error of its step whose reason says so and gives the stack', async () => {
    const outcome = await runCase(adapterAnswering({ throws: () => { throw new TypeError('no such node') } }), surfaceCase('throws'))
    expect(outcome).toMatchObject({ status: 'error', step: 0, operation: 'surface' })
    expect(outcome.reason).toMatch(/^surface threw: TypeError: no such node\n\s+at /)
  })

  it('names a thrown value that is no Error by its text', async () => {
    const outcome = await runCase(adapterAnswering({ throws: () => { throw 'out of cheese' } }), surfaceCase('throws'))
    expect(outcome.reason).toBe('surface threw: out of cheese')
  })

  it('keeps the start of a long message or stack, and counts the rest', async () => {
    const outcome = await runCase(adapterAnswering({ throws: () => { throw new Error('x'.repeat(100_000)) } }), surfaceCase('throws'))
    expect(outcome.reason).toMatch(/^surface threw: Error: x{3993}… \(\d+ more characters\)$/)
  })
})

describe('an operation that changes its input', () => {
  /** An adapter whose surface changes its input as `change` does, then answers as a correct one. */
  const changing = (change: (input: Record<string, unknown>) => void): Adapter => ({
    meta: { name: 'fake', version: '0', language: 'typescript', profiles: ['reader'] },
    operations: { surface: input => { change(input); return correct() } },
  })
  const withLog = (id: string): VectorCase => {
    const vector = surfaceCase(id)
    return { ...vector, steps: [{ ...vector.steps[0]!, input: { events: [{ type: 'user/message', seq: 0, time: 1, data: { turn: 1 } }] } }] }
  }

  it('is an error of its step naming what changed, whether it adds, sets or deletes, in strict code or sloppy', async () => {
    // new Function makes sloppy code, where a write to a frozen object is dropped without a word.
    const sloppyDelete = new Function('input', 'delete input.events[0].time') as (input: Record<string, unknown>) => void
    const changes: [(input: Record<string, unknown>) => void, string][] = [
      [input => { (input['events'] as unknown[]).push({}) }, '$.events[1] was added'],
      [input => { ((input['events'] as Record<string, unknown>[])[0]!['data'] as Record<string, unknown>)['turn'] = 2 }, '$.events[0].data.turn was changed'],
      [input => { delete (input['events'] as Record<string, unknown>[])[0]!['time'] }, '$.events[0].time was removed'],
      [sloppyDelete, '$.events[0].time was removed'],
    ]
    for (const [change, what] of changes) {
      const outcome = await runCase(changing(change), withLog('changes'))
      expect(outcome).toMatchObject({ status: 'error', step: 0, operation: 'surface' })
      expect(outcome.reason).toBe(`surface changed its input (an operation must leave it as it was): ${what}`)
    }
  })

  it('may freeze it, which changes none of its members', async () => {
    const freezing = changing(input => { Object.freeze(input['events']) })
    expect(await runCase(freezing, withLog('freezes'))).toMatchObject({ status: 'pass' })
  })

  it('may read it, and copy it to change the copy', async () => {
    const copying = changing(input => { structuredClone(input['events'] as unknown[]).push({}) })
    expect(await runCase(copying, withLog('copies'))).toMatchObject({ status: 'pass' })
  })
})

describe('an adapter that crashes or hangs on case after case', () => {
  it('is no longer asked after ten such cases in a row: the rest are errors that say why, skips stay skips', async () => {
    let asked = 0
    const crashing = (): ReturnType<Operation> => {
      asked += 1
      throw new AdapterFailure('crash: the adapter process ended (exit code 3)')
    }
    const ids = Array.from({ length: CRASHES_IN_A_ROW_TO_STOP + 3 }, (_, index) => `c${index}`)
    const adapter = adapterAnswering(Object.fromEntries(ids.map((id) => [id, crashing])))
    // A skip between them neither counts nor breaks the row; the last case is one the adapter cannot run.
    const cases = [...ids.slice(0, 4).map(surfaceCase), { ...surfaceCase('writer'), profile: 'writer' }, ...ids.slice(4).map(surfaceCase), { ...surfaceCase('writer-2'), profile: 'writer' }]
    const outcomes = await runSuite(adapter, cases)
    expect(asked).toBe(CRASHES_IN_A_ROW_TO_STOP)
    expect(outcomes.map((outcome) => outcome.status)).toEqual([...Array(4).fill('error'), 'skip', ...Array(ids.length - 4).fill('error'), 'skip'])
    expect(outcomes.at(-2)).toEqual({ id: ids.at(-1), status: 'error', reason: `crash: not run, since the adapter crashed or timed out on each of the ${CRASHES_IN_A_ROW_TO_STOP} cases before it, and the run stopped asking it` })
  })

  it('is asked on after a case it answers, and after any other error', async () => {
    let asked = 0
    const crash = (): ReturnType<Operation> => {
      asked += 1
      throw new AdapterFailure('timeout: no reply')
    }
    const other = (): ReturnType<Operation> => {
      asked += 1
      throw new TypeError('not a crash')
    }
    const pattern = [...Array(CRASHES_IN_A_ROW_TO_STOP - 1).fill(crash), correct, ...Array(CRASHES_IN_A_ROW_TO_STOP - 1).fill(crash), other, crash, crash]
    const ids = pattern.map((_, index) => `c${index}`)
    const adapter = adapterAnswering(Object.fromEntries(ids.map((id, index) => [id, pattern[index]])))
    const outcomes = await runSuite(adapter, ids.map(surfaceCase))
    expect(asked).toBe(pattern.length - 1)
    expect(outcomes.every((outcome) => !outcome.reason?.includes('not run'))).toBe(true)
  })
})

describe('a case the adapter cannot run', () => {
  it('is skipped, naming each operation it lacks once, in the order the steps use them', async () => {
    const steps = (['surface', 'messages', 'surface', 'relations', 'messages'] as const).map((operation) => ({ operation, input: { events: [] }, expect: { accept: true as const } }))
    const outcome = await runCase(adapterAnswering({}), { ...surfaceCase('lacking'), steps })
    expect(outcome).toEqual({ id: 'lacking', status: 'skip', reason: 'operation(s) not provided: messages, relations' })
  })

  it('is skipped when the adapter does not declare the case\'s profile, saying so when it provides the case\'s operations', async () => {
    const provided = await runCase(adapterAnswering({}), { ...surfaceCase('writer'), profile: 'writer' })
    expect(provided).toEqual({ id: 'writer', status: 'skip', reason: 'profile "writer" not declared, though the adapter provides the operations of this case: surface' })
    const steps = (['surface', 'messages'] as const).map((operation) => ({ operation, input: { events: [] }, expect: { accept: true as const } }))
    const lacking = await runCase(adapterAnswering({}), { ...surfaceCase('writer'), profile: 'writer', steps })
    expect(lacking).toEqual({ id: 'writer', status: 'skip', reason: 'profile "writer" not declared' })
  })
})

describe('a module adapter', () => {
  const dir = mkdtempSync(join(tmpdir(), 'module-adapter-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))
  const META = "{ name: 'm', version: '0', language: 'javascript', profiles: ['reader'] }"
  let written = 0
  /** A module file holding `source`; each under a name of its own, since an imported module is cached. */
  const moduleOf = (source: string): string => {
    written += 1
    const path = join(dir, `adapter-${written}.mjs`)
    writeFileSync(path, `${source}\n`)
    return path
  }

  it('is taken from its export named adapter before its default export', async () => {
    const path = moduleOf(`export const adapter = { meta: ${META}, operations: {} }\nexport default 7`)
    expect((await adapterFromModule(path)).meta.name).toBe('m')
  })

  it("holds its meta's members to the started reply's lengths", () => {
    const schema = JSON.parse(readFileSync(new URL('../schemas/protocol-started.schema.json', import.meta.url), 'utf8')) as { $defs: { ProtocolImplementation: { properties: Record<string, { maxLength: number }> } } }
    const lengths = schema.$defs.ProtocolImplementation.properties
    expect([lengths['name']?.maxLength, lengths['version']?.maxLength, lengths['language']?.maxLength, lengths['homepage']?.maxLength])
      .toEqual([MOST_NAME_CHARACTERS, MOST_NAME_CHARACTERS, MOST_NAME_CHARACTERS, MOST_HOMEPAGE_CHARACTERS])
  })

  it.each([
    ['no export at all', 'export const other = 1', 'no adapter'],
    ['no meta', 'export default { operations: {} }', 'an adapter without meta (an object)'],
    ['a meta without a language', "export default { meta: { name: 'm', version: '0', profiles: [] }, operations: {} }", 'an adapter without meta.language (a non-empty string)'],
    ['a version that is no string', "export default { meta: { name: 'm', version: 0, language: 'js', profiles: [] }, operations: {} }", 'an adapter without meta.version (a non-empty string)'],
    ['no list of profiles', "export default { meta: { name: 'm', version: '0', language: 'js', profiles: 'reader' }, operations: {} }", 'an adapter without meta.profiles (an array)'],
    ['no operations', `export default { meta: ${META} }`, 'an adapter without operations (an object)'],
    ['null operations', `export default { meta: ${META}, operations: null }`, 'an adapter without operations (an object)'],
    ['an empty name', "export default { meta: { name: '', version: '0', language: 'js', profiles: [] }, operations: {} }", 'an adapter without meta.name (a non-empty string)'],
    ['a name and a homepage too long for the reports', `export default { meta: { name: '${'n'.repeat(201)}', version: '0', language: 'js', profiles: [], homepage: '${'h'.repeat(2001)}' }, operations: {} }`, 'an adapter without meta.name (a string of at most 200 characters; it has 201), meta.homepage (a string of at most 2000 characters; it has 2001)'],
    ['a homepage that is no string and an unknown transport', "export default { meta: { name: 'm', version: '0', language: 'js', profiles: [], homepage: 1, transport: 'carrier pigeon' }, operations: {} }", 'an adapter without meta.homepage (a non-empty string, when given), meta.transport ("in-process" or "subprocess", when given)'],
    ['a name alone', "export default { meta: { name: 'm' } }", 'an adapter without meta.version (a non-empty string), meta.language (a non-empty string), meta.profiles (an array), operations (an object)'],
  ])('with %s is refused, naming the file, what it lacks and the shape it must have', async (_name, source, what) => {
    const path = moduleOf(source)
    await expect(adapterFromModule(path)).rejects.toThrow(`${path} exports ${what}: its default export, or its export named adapter, must be {meta: {name, version, language, profiles}, operations}`)
  })

})

describe('a case an adapter runs', () => {
  const readerCase = (operations: ('load' | 'surface')[]): VectorCase => ({
    ...surfaceCase('c'),
    steps: operations.map((operation) => ({ operation, input: { events: [] }, expect: { accept: true as const } })),
  })
  const adapter = (profiles: string[], operations: Adapter['operations']): Adapter => ({ meta: { name: 'a', version: '1', language: 'js', profiles }, operations })
  const both = { load: () => ({ ok: true as const, value: [] }), surface: () => ({ ok: true as const, value: null }) }

  it('is skipped, listing every operation the adapter provides, when its profile is not claimed', async () => {
    expect(await runCase(adapter([], both), readerCase(['load', 'surface']))).toEqual({
      id: 'c', status: 'skip', reason: 'profile "reader" not declared, though the adapter provides the operations of this case: load, surface',
    })
  })

  it('is timed in milliseconds, within the time it took', async () => {
    const slow = adapter(['reader'], { load: () => new Promise((resolve) => setTimeout(() => resolve({ ok: true, value: [] }), 25)) })
    const started = performance.now()
    const outcome = await runCase(slow, readerCase(['load']))
    const elapsed = performance.now() - started
    expect(outcome.status).toBe('pass')
    expect(outcome.durationMs).toBeGreaterThanOrEqual(20)
    expect(outcome.durationMs).toBeLessThanOrEqual(elapsed + 0.001)
  })

  it('fails when the adapter rejects at seq -0 where the vector expects seq 0 (-0 is no seq)', async () => {
    const negativeZero = adapter(['reader'], { load: () => ({ ok: false, error: { code: 'FORMAT_VERSION_NEWER', seq: -0 } }) })
    const vector: VectorCase = { ...readerCase(['load']), steps: [{ operation: 'load', input: { events: [] }, expect: { reject: { code: 'FORMAT_VERSION_NEWER', seq: 0 } } }] }
    expect(await runCase(negativeZero, vector)).toMatchObject({ status: 'fail', reason: expect.stringContaining('got seq -0') })
  })
})

