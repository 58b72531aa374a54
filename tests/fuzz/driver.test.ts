// The fuzzer's own guarantees: the reference against itself finds nothing; the same seed writes the
// same files; the time budget stops cleanly; known classes are tolerated; the command line's exit
// status; and the log edits the shrinker makes keep every seq reference consistent.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { Adapter, Operation } from '../../conformance/adapter.ts'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { reference } from '../../reference/index.ts'
import { drawRun } from '../../conformance/fuzz/draw.ts'
import { deriveProbe } from '../../conformance/fuzz/probes.ts'
import { fuzzCommand } from '../../conformance/fuzz/command.ts'
import { fuzz } from '../../conformance/fuzz/driver.ts'
import { signatureOf } from '../../conformance/fuzz/compare.ts'
import { knownClassOf } from '../../conformance/fuzz/known.ts'
import { withoutEvents } from '../../conformance/fuzz/log-cuts.ts'
import { parseFuzzOptions } from '../../conformance/fuzz/options.ts'
import { startSubprocessAdapter } from '../../conformance/subprocess-adapter.ts'
import { loadVectorFile, projectRoot } from '../../conformance/vector-cases.ts'
import { isOlderShape } from '../../conformance/generators/index.ts'
import { KNOWN_BAD } from '../known-bad/index.ts'
import { knownBadAdapter } from '../known-bad/wrap.ts'
import { runCli } from '../support/cli.ts'
import { HOSTILE, HOSTILE_ESCAPED, hostileAdapterCommand, RAW_CONTROL } from '../support/hostile-text.ts'
import { errorsOf, schemaValidator } from '../support/schemas.ts'

const folders: string[] = []
afterAll(() => {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true })
})

function tempFolder(): string {
  const folder = mkdtempSync(join(tmpdir(), 'dsh-fuzz-'))
  folders.push(folder)
  return folder
}

/** Every file below `folder`, relative path to content. */
function filesIn(folder: string): Record<string, string> {
  const names = readdirSync(folder, { recursive: true, encoding: 'utf8' }).filter(name => name.includes('.')).sort()
  return Object.fromEntries(names.map(name => [name, readFileSync(join(folder, name), 'utf8')]))
}

/** The operators that put a value outside the lossless JSON domain into a record or a candidate. */
const DOMAIN_OPERATOR = /^(append-)?(negative-zero|non-finite-number|undefined-value|bigint-value|sparse-array|two-domain-faults)$/

const forkAnywhere = knownBadAdapter(KNOWN_BAD.find(bad => bad.name === 'fork-inside-open-turn')!)

/** The reference, but its load rejects with `code` (at seq 0) every log holding a record `planted` picks. */
function rejectingLoadsWhere(name: string, planted: (record: unknown) => boolean, code: string): Adapter {
  return {
    ...referenceAdapter, meta: { ...referenceAdapter.meta, name },
    operations: {
      ...referenceAdapter.operations,
      load: input => ((input as { events: unknown[] }).events.some(planted)
        ? { ok: false, error: { code, seq: 0, message: 'planted' } }
        : referenceAdapter.operations.load!(input)),
    },
  }
}

describe('fuzz', () => {
  it('finds nothing when the reference is fuzzed against itself', async () => {
    const report = await fuzz(referenceAdapter, { runs: 40, seed: 3, outDir: tempFolder(), maxEvents: 60 })
    expect(report.runsDone).toBe(40)
    expect(report.operations.length).toBeGreaterThanOrEqual(14)
    expect(report.findings).toEqual([])
  })

  it('counts the probes it judged the adapter on apart from those whose result the spec leaves open', async () => {
    let calls = 0
    const counted = Object.fromEntries(Object.entries(referenceAdapter.operations).map(([name, operation]) => [name, ((input, context) => {
      calls += 1
      return operation(input, context)
    }) satisfies Operation]))
    const report = await fuzz({ ...referenceAdapter, operations: counted }, { runs: 30, seed: 3, outDir: tempFolder(), maxEvents: 40 })
    // Agreeing everywhere, the adapter is called once a compared probe, and never over a log load rejects.
    expect(report.compared).toBe(calls)
    expect(report.compared).toBeGreaterThan(0)
    expect(report.compared).toBeLessThan(report.probes)
    // Per operation: the same counts, and the reference's rejections among the compared probes.
    const counts = Object.values(report.byOperation)
    expect(Object.keys(report.byOperation)).toEqual(report.operations)
    expect(counts.reduce((sum, count) => sum + count.probes, 0)).toBe(report.probes)
    expect(counts.reduce((sum, count) => sum + count.compared, 0)).toBe(report.compared)
    const load = report.byOperation['load']!
    expect(load.compared).toBe(load.probes)
    expect(load.rejected).toBeGreaterThan(0)
    expect(load.rejected).toBeLessThan(load.compared)
  })

  it('tells a headerEquals departure on values outside HDR-1 apart from one on HDR-1 values', async () => {
    // An adapter that calls every pair of snapshots equal departs on both kinds of pairs.
    const alwaysEqual: Adapter = { ...referenceAdapter, operations: { ...referenceAdapter.operations, headerEquals: () => ({ ok: true, value: true }) } }
    const report = await fuzz(alwaysEqual, { runs: 150, seed: 1, outDir: tempFolder(), maxEvents: 30, only: ['headerEquals'] })
    expect(report.findings.map(finding => finding.adapter).sort()).toEqual(['differs at $', 'differs at $ (values outside HDR-1)'])
  })

  it('compares the load, surface and messages a writer provides (profiles.md), writing their vectors as the writer\'s', async () => {
    const { load, surface, append } = referenceAdapter.operations
    const writer: Adapter = {
      meta: { ...referenceAdapter.meta, name: 'writer-only', profiles: ['writer'] },
      operations: { load, surface, append, messages: () => ({ ok: true, value: [] }) },
    }
    const outDir = tempFolder()
    const report = await fuzz(writer, { runs: 20, seed: 3, outDir, maxEvents: 30 })
    expect(report.operations).toEqual(['load', 'surface', 'messages', 'append'])
    const found = report.findings.filter(finding => finding.operation === 'messages')
    expect(found.length).toBeGreaterThan(0)
    for (const finding of found) {
      expect(finding.problem).toBeUndefined()
      expect(loadVectorFile(join(outDir, finding.vector!.file), finding.vector!.file)[0]!.profile).toBe('writer')
    }
  })

  it('finds a requestContext that spreads data that is no object as a class of its own', async () => {
    // As the upstream builds do (U21): the string "wide" read as {"0": "w", …}.
    const spreading: Adapter = {
      ...referenceAdapter,
      operations: {
        ...referenceAdapter.operations,
        requestContext: (input) => {
          const contexts = (input['events'] as { type: string; seq: number; data: unknown }[]).filter(item => item.type === 'request/context')
          const atSeq = input['atSeq'] as number | undefined
          const inForce = contexts.filter(item => atSeq === undefined || item.seq <= atSeq).at(-1)
          return { ok: true, value: inForce === undefined ? null : { ...(inForce.data as object) } }
        },
      },
    }
    const report = await fuzz(spreading, { runs: 150, seed: 7, outDir: tempFolder(), maxEvents: 40, only: ['requestContext'] })
    expect(report.findings.filter(finding => finding.olderShapes !== true).map(finding => finding.adapter)).toEqual(['differs at $.0 (context data not an object)'])
  })

  it('counts an edited probe that repeats load\'s departure under load, as any other, where load read the run\'s log', async () => {
    const holdsContext = (events: unknown): boolean => (events as { type: string }[]).some(item => item.type === 'request/context')
    const refusing = (operation: 'load' | 'requestContext'): Operation => (input, context) =>
      (holdsContext(input['events']) ? { ok: false, error: { code: 'PAYLOAD_INVALID', seq: null } } : referenceAdapter.operations[operation]!(input, context))
    const adapter: Adapter = { ...referenceAdapter, operations: { ...referenceAdapter.operations, load: refusing('load'), requestContext: refusing('requestContext') } }
    const report = await fuzz(adapter, { runs: 60, seed: 7, outDir: tempFolder(), maxEvents: 40, only: ['load', 'requestContext'] })
    expect(report.findings.filter(finding => finding.operation === 'load')).not.toEqual([])
    // load's own probe of a valid log is now and then given two surface faults (surface-check-order.ts):
    // load then departs otherwise, and requestContext's departure on that run is a finding of its own.
    const runs = Array.from({ length: 60 }, (_, index) => drawRun(7, index, 40)).filter(run => holdsContext(run.events))
    const loadEdited = runs.filter(run => deriveProbe(run, 'load')!.events !== run.events)
    expect(runs.length, 'the premise: runs whose load read their own log').toBeGreaterThan(loadEdited.length)
    const ownFindings = report.findings.filter(finding => finding.operation === 'requestContext')
    expect(ownFindings.reduce((sum, finding) => sum + finding.occurrences, 0)).toBeLessThanOrEqual(loadEdited.length)
  })

  it('finds nothing on the reference behind serve: values JSON text cannot carry cross the protocol tagged, both ways', async () => {
    const served = await startSubprocessAdapter('npx tsx conformance/cli.ts serve', { cwd: projectRoot, timeoutMs: 20_000 })
    try {
      const report = await fuzz(served, { runs: 60, seed: 3, outDir: tempFolder(), maxEvents: 30, only: ['load', 'append'] })
      // The premise: logs and candidates holding -0, a non-finite number, undefined, a bigint or a sparse
      // array (some operator of chapter 02's) were drawn.
      const drawn = Object.entries(report.mutations).filter(([, count]) => count > 0).map(([name]) => name)
      expect(drawn.filter(name => DOMAIN_OPERATOR.test(name) && !name.startsWith('append-')), 'a load operator of chapter 02').not.toEqual([])
      expect(drawn.filter(name => DOMAIN_OPERATOR.test(name) && name.startsWith('append-')), 'an append operator of chapter 02').not.toEqual([])
      expect(report.findings).toEqual([])
    } finally {
      await served.close?.()
    }
  })

  it('is deterministic: the same seed draws the same runs and writes the same files', async () => {
    const [first, second] = [tempFolder(), tempFolder()]
    for (const outDir of [first, second]) await fuzz(forkAnywhere, { runs: 12, seed: 5, outDir, maxEvents: 30, only: ['fork'] })
    const files = filesIn(first)
    expect(Object.keys(files).length).toBeGreaterThan(0)
    expect(filesIn(second)).toEqual(files)
    expect(drawRun(5, 7, 30)).toEqual(drawRun(5, 7, 30))
    expect(drawRun(5, 7, 30)).not.toEqual(drawRun(6, 7, 30))
  })

  it('stops at the time budget and reports the runs it did', async () => {
    const report = await fuzz(referenceAdapter, { runs: 100_000, seed: 1, outDir: tempFolder(), maxEvents: 20, timeBudgetMs: 300 })
    expect(report.stoppedByBudget).toBe(true)
    expect(report.runsDone).toBeGreaterThan(0)
    expect(report.runsDone).toBeLessThan(100_000)
  })

  /**
   * The premise of a test of surface's answers: one of the first `runs` runs of `seed` has a log that
   * load accepts, the only kind surface is compared on. A change to the draw may break it; this says so.
   */
  function expectLoadableRun(seed: number, runs: number, maxEvents: number): void {
    const drawn = Array.from({ length: runs }, (_, index) => drawRun(seed, index, maxEvents))
    const loadable = drawn.some(run => reference.load({ header: run.header, events: run.events }).ok)
    expect(loadable, `one of the first ${runs} runs of seed ${seed} has a log that load accepts`).toBe(true)
  }

  /** The reference, except that its surface answers with `answer` instead. */
  function surfaceAnswering(answer: (input: Record<string, unknown>) => unknown): Adapter {
    return { ...referenceAdapter, meta: { ...referenceAdapter.meta, name: 'surface-misbehaves' }, operations: { ...referenceAdapter.operations, surface: answer as Adapter['operations']['surface'] } }
  }

  it('reads a rejection\'s null seq or line as none, as the runner does', async () => {
    const withNullPlaces = (operation: Operation): Operation => async (input, context) => {
      const result = await operation(input, context)
      return result.ok || 'unsupported' in result ? result : { ok: false, error: { seq: null, line: null, ...result.error } }
    }
    const operations = Object.fromEntries(Object.entries(referenceAdapter.operations).map(([name, operation]) => [name, withNullPlaces(operation)]))
    const nulls: Adapter = { meta: { ...referenceAdapter.meta, name: 'null-places' }, operations }
    const report = await fuzz(nulls, { runs: 40, seed: 3, outDir: tempFolder(), maxEvents: 60 })
    expect(report.runsDone).toBe(40)
    expect(report.findings).toEqual([])
  })

  it('counts a reply it cannot inspect as a failure of the adapter, and goes on', async () => {
    const revoked = Proxy.revocable({}, {})
    revoked.revoke()
    expectLoadableRun(3, 3, 20)
    const report = await fuzz(surfaceAnswering(() => ({ ok: true, value: revoked.proxy })), { runs: 3, seed: 3, outDir: tempFolder(), maxEvents: 20, only: ['surface'] })
    expect(report.runsDone).toBe(3)
    expect(report.findings.map(finding => finding.signature)).toEqual(['surface: reference accepts, adapter fails: uninspectable reply'])
  })

  it('counts a reply that is no result as such, values JSON cannot carry in it included', async () => {
    // The fuzz inputs hold bigints now; an adapter that echoes one back must not read as uninspectable.
    expectLoadableRun(3, 3, 20)
    const report = await fuzz(surfaceAnswering(() => ({ echoed: 5n })), { runs: 3, seed: 3, outDir: tempFolder(), maxEvents: 20, only: ['surface'] })
    expect(report.findings.map(finding => finding.signature)).toEqual(['surface: reference accepts, adapter fails: no operation result'])
    expect(report.findings[0]!.detail).toContain('{"echoed":{"$dsh":"bigint","value":"5"}}')
  })

  it('counts a rejection whose members cannot be read as a reply it cannot inspect', async () => {
    const unreadable = new Proxy({}, { get: () => { throw new Error('no members') } })
    expectLoadableRun(3, 3, 20)
    const report = await fuzz(surfaceAnswering(() => ({ ok: false, error: unreadable })), { runs: 3, seed: 3, outDir: tempFolder(), maxEvents: 20, only: ['surface'] })
    expect(report.findings.map(finding => finding.signature)).toEqual(['surface: reference accepts, adapter fails: uninspectable reply'])
  })

  it('keeps a finding whose written vector does not fail the adapter, saying so: a flaky adapter\'s', async () => {
    // Wrong on its first answer alone: the replay of the vector it earned meets a right one.
    const surface = referenceAdapter.operations.surface!
    let answered = 0
    const flaky = surfaceAnswering(async (input) => (answered++ === 0 ? { ok: true, value: { nodes: [], replacements: [], generation: -1 } } : surface(input)))
    const report = await fuzz(flaky, { runs: 3, seed: 3, outDir: tempFolder(), maxEvents: 20, only: ['surface'] })
    expect(report.findings).toHaveLength(1)
    expect(report.findings[0]!.vector).toBeDefined()
    expect(report.findings[0]!.problem).toMatch(/^the vector does not fail the adapter: pass/)
  })

  it('gives an in-process operation that never answers its timeout, as a failure', async () => {
    // It hangs only where the reference accepts, so the class found does not depend on the seed's draws.
    const surface = referenceAdapter.operations.surface!
    const hangsOnValidLogs = surfaceAnswering(async (input) => {
      const answer = await surface(input)
      return answer.ok ? new Promise(() => {}) : answer
    })
    const report = await fuzz(hangsOnValidLogs, { runs: 10, seed: 1, outDir: tempFolder(), maxEvents: 10, only: ['surface'], timeoutMs: 250, maxShrinkChecks: 3 })
    expect(report.findings.map(finding => [finding.operation, finding.reference, finding.adapter])).toEqual([['surface', 'accepts', 'fails: timeout']])
  })

  it('gives an in-process operation that returns only after its timeout a timeout too', async () => {
    const surface = referenceAdapter.operations.surface!
    const slowOnValidLogs = surfaceAnswering((input) => {
      const answer = surface(input) as { ok: boolean }
      const until = performance.now() + 500
      while (answer.ok && performance.now() < until);
      return answer
    })
    // 250 ms: long enough for the calls that must answer in time to do so on a busy machine.
    const report = await fuzz(slowOnValidLogs, { runs: 10, seed: 1, outDir: tempFolder(), maxEvents: 10, only: ['surface'], timeoutMs: 250, maxShrinkChecks: 3 })
    expect(report.findings.map(finding => [finding.operation, finding.reference, finding.adapter])).toEqual([['surface', 'accepts', 'fails: timeout']])
  })

  it('lets no known class excuse a failure of the adapter, however wide its globs', async () => {
    const everything = [{ class: 'all', why: 'matches every departure' }]
    expectLoadableRun(3, 2, 20)
    const report = await fuzz(surfaceAnswering(() => { throw new Error('surface is broken') }), { runs: 2, seed: 3, outDir: tempFolder(), maxEvents: 20, only: ['surface'], known: everything })
    expect(report.findings.map(finding => [finding.adapter, finding.known])).toEqual([['fails: throws', undefined]])
    expect(knownClassOf(everything, { operation: 'surface', reference: 'accepts', adapter: 'differs at $.nodes[]' })).toEqual(everything[0])
  })

  it('marks the classes a known-divergences file lists', async () => {
    // The fork probes given undefined members make classes of their own (input-members.ts).
    const known = [
      { class: 'F1', why: 'planted', operation: 'fork', reference: 'rejects FORK_*', adapter: 'accepts' },
      { class: 'F1', why: 'planted', operation: 'fork', reference: 'rejects FORK_*', adapter: 'accepts (optional members undefined)' },
    ]
    const report = await fuzz(forkAnywhere, { runs: 30, seed: 1, outDir: tempFolder(), maxEvents: 30, only: ['fork'], known })
    expect(report.findings.length).toBeGreaterThan(0)
    expect(report.findings.map(finding => finding.known)).toEqual(report.findings.map(() => 'F1'))
    expect(knownClassOf(known, { operation: 'load', reference: 'rejects FORK_OPEN_TURN', adapter: 'accepts' })).toBeUndefined()
  })

  it('keeps a bug of the log out of the older-shapes classes, whatever shapes the run it was found on had', async () => {
    // ignorable-ignored drops ignorable events whatever their shapes: its disagreements show on the current-shape twin too.
    const report = await fuzz(knownBadAdapter(KNOWN_BAD.find(bad => bad.name === 'ignorable-ignored')!), { runs: 150, seed: 2, outDir: tempFolder(), maxEvents: 40, only: ['load'] })
    expect(report.findings.length).toBeGreaterThan(0)
    expect(report.findings.filter(finding => finding.olderShapes === true)).toEqual([])
  })

  it('gives a bug of the older shapes a class of its own, with an older shape in its counterexample', async () => {
    const refusesOlderShapes = rejectingLoadsWhere('refuses-older-shapes', isOlderShape, 'LEGACY_SHAPE_MALFORMED')
    const outDir = tempFolder()
    const report = await fuzz(refusesOlderShapes, { runs: 30, seed: 1, outDir, maxEvents: 40, only: ['load'] })
    expect(report.findings.length).toBeGreaterThan(0)
    for (const finding of report.findings) {
      expect(finding.signature).toMatch(/^load \(older shapes\)( \(a record no object\))?: /)
      const [vector] = loadVectorFile(join(outDir, finding.vector!.file), finding.vector!.file)
      expect(vector!.steps[0]!.input['events'] as unknown[]).toSatisfy(events => events.some(isOlderShape))
    }
  })

  it('tells the logs in older shapes apart: a class of their own, which a known class can single out', () => {
    const found = { operation: 'load', reference: 'accepts', adapter: 'rejects MESSAGE_ID_INVALID' }
    expect(signatureOf(found)).toBe('load: reference accepts, adapter rejects MESSAGE_ID_INVALID')
    expect(signatureOf({ ...found, olderShapes: true })).toBe('load (older shapes): reference accepts, adapter rejects MESSAGE_ID_INVALID')
    const known = [{ class: 'U7', why: 'no upgrades', shapes: 'older' as const }]
    expect(knownClassOf(known, { ...found, olderShapes: true })).toEqual(known[0])
    expect(knownClassOf(known, found)).toBeUndefined()
  })

  it('gives a bug met only on logs holding a record that is no object a class of its own, with such a record in its counterexample', async () => {
    const isNoObject = (record: unknown): boolean => typeof record !== 'object' || record === null || Array.isArray(record)
    // Throws a TypeError reading a null record's members, as U13's build does, and reports it as a rejection.
    const crashesOnNonObjects = rejectingLoadsWhere('crashes-on-non-objects', isNoObject, 'UNMAPPED')
    const outDir = tempFolder()
    const report = await fuzz(crashesOnNonObjects, { runs: 400, seed: 1, outDir, maxEvents: 40, only: ['load'] })
    expect(report.findings.length).toBeGreaterThan(0)
    for (const finding of report.findings) {
      expect(finding.signature).toMatch(/^load( \(older shapes\))? \(a record no object\): reference rejects [A-Z_]+, adapter rejects UNMAPPED$/)
      const [vector] = loadVectorFile(join(outDir, finding.vector!.file), finding.vector!.file)
      expect(vector!.steps[0]!.input['events'] as unknown[]).toSatisfy((events: unknown[]) => events.some(isNoObject))
    }
  })

  it('tells the logs holding a record that is no object apart: a class of their own, which a known class can single out', () => {
    const found = { operation: 'load', reference: 'rejects ENV_SEQ_NOT_CONTIGUOUS', adapter: 'rejects UNMAPPED' }
    expect(signatureOf({ ...found, recordNotObject: true })).toBe('load (a record no object): reference rejects ENV_SEQ_NOT_CONTIGUOUS, adapter rejects UNMAPPED')
    expect(signatureOf({ ...found, olderShapes: true, recordNotObject: true })).toBe('load (older shapes) (a record no object): reference rejects ENV_SEQ_NOT_CONTIGUOUS, adapter rejects UNMAPPED')
    const known = [{ class: 'U13', why: 'a TypeError', reference: 'rejects *', adapter: 'rejects UNMAPPED', records: 'not-all-objects' as const }]
    expect(knownClassOf(known, { ...found, recordNotObject: true })).toEqual(known[0])
    expect(knownClassOf(known, found)).toBeUndefined()
    expect(knownClassOf([{ ...known[0]!, records: 'objects' as const }], found)).toEqual({ ...known[0], records: 'objects' })
  })
})

describe('dsh-conformance fuzz', () => {
  /** Runs the command in process, with what it prints collected. */
  async function fuzzIn(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const printed = { stdout: [] as unknown[], stderr: [] as unknown[] }
    const log = vi.spyOn(console, 'log').mockImplementation((...parts) => { printed.stdout.push(...parts, '\n') })
    const error = vi.spyOn(console, 'error').mockImplementation((...parts) => { printed.stderr.push(...parts, '\n') })
    try {
      const code = await fuzzCommand(args)
      return { code, stdout: printed.stdout.join(' '), stderr: printed.stderr.join(' ') }
    } finally {
      log.mockRestore()
      error.mockRestore()
    }
  }

  it('prints the adapter\'s name and what it answered through printable: nothing of the adapter\'s reaches the terminal raw or makes a line', async () => {
    const run = await fuzzIn(['--adapter-cmd', hostileAdapterCommand(HOSTILE), '--runs', '20', '--seed', '1', '--out', tempFolder()])
    expect(run.stdout.startsWith(`fuzz ${HOSTILE_ESCAPED} 0.0.0 against the reference: seed 1, 20 runs `)).toBe(true)
    // A finding's detail is the first line of the adapter's message, which a CR LF ends as a line feed does.
    expect(run.stdout).toContain('\n      adapter error: evil\\u001b]0;TITLE\\u0007\\u001b[2J\n')
    expect(run.stderr).toContain(`warning: ${HOSTILE_ESCAPED} claims the reader profile`)
    for (const output of [run.stdout, run.stderr]) {
      expect(output).not.toMatch(RAW_CONTROL)
      expect(output.split('\n').filter(line => line.trimStart().startsWith('forged'))).toEqual([])
    }
    expect(run.code).toBe(1)
  })

  it('exits 1 on a new disagreement, 0 when a --known file covers it, 2 on usage errors', async () => {
    const outDir = tempFolder()
    const known = join(outDir, 'known.yaml')
    writeFileSync(known, "adapters: ['fake-*']\nknown:\n  - {class: everything, adapter: '*', why: the fake folds and checks nothing}\n  - {class: stale, operation: nothing-by-this-name, why: a class the runs never meet}\n  - {class: 'stale, too', operation: nothing-by-this-name, why: a name with a comma}\n")
    const fake = ['--adapter-cmd', 'node tests/fakes/fake-adapter.mjs misorder', '--runs', '40', '--seed', '1', '--out']
    const found = await fuzzIn([...fake, join(outDir, 'a')])
    const tolerated = await fuzzIn([...fake, join(outDir, 'b'), '--known', known])
    const intoVectors = await fuzzIn(['--adapter', 'reference', '--out', 'vectors/fuzz'])
    expect(found.stdout).toContain('NEW   surface: reference accepts, adapter differs at $.nodes[]')
    expect(found.code).toBe(1)
    // The headline counts the classes no --known entry covers: all of them, then none.
    expect(found.stdout).toMatch(/: (\d+) class(es)? of disagreement, \1 not known\s/)
    expect(tolerated.stdout).toMatch(/: \d+ class(es)? of disagreement, 0 not known\s/)
    expect(tolerated.stdout).toContain('KNOWN everything surface: reference accepts')
    expect(tolerated.code).toBe(0)
    // What the runs did not reach is said: the operators 40 runs never drew, the classes nothing fell in.
    expect(found.stdout).toMatch(/\d+ mutation operators never drawn in these runs \(more runs draw them\): \S/)
    expect(tolerated.stdout).toContain('known classes no disagreement of these runs fell in (drawn too rarely, mended, or a typo): stale; stale, too\n')
    expect(tolerated.stdout).not.toContain('fell in (drawn too rarely, mended, or a typo): everything')
    const summaries = ['a', 'b'].map(folder => JSON.parse(readFileSync(join(outDir, folder, 'fuzz-summary.json'), 'utf8')) as unknown)
    expect(summaries[1]).toMatchObject({ adapter: 'fake-misorder@0.0.0', seed: 1, runs: 40, maxEvents: 60, runsDone: 40 })
    const validSummary = schemaValidator('fuzz-summary')
    for (const summary of summaries) expect(validSummary(summary), errorsOf(validSummary)).toBe(true)
    expect(intoVectors.code).toBe(2)
    expect(intoVectors.stderr).toContain('inside vectors/')
  })

  it('warns of the operations of a claimed profile the adapter does not provide: they are not compared', async () => {
    const surfaceOnly = await fuzzIn(['--adapter-cmd', 'python3 examples/python-adapter/adapter.py', '--runs', '3', '--seed', '1', '--out', tempFolder()])
    expect(surfaceOnly.stdout).toContain('operations compared: surface ')
    expect(surfaceOnly.stdout).not.toMatch(/never drawn[^\n]*\(valid\)/)
    expect(surfaceOnly.stderr).toMatch(/^warning: \S+ claims the reader profile but does not provide its operations load, .*messages.*, so they are not compared/)
    expect(surfaceOnly.stderr).not.toMatch(/operations [^\n]*\bsurface\b/)
  })

  it('finds the Python example answering the logs its README fuzzes it with, older shapes included: no adapter error', async () => {
    // Seed 1's run 42 rewrites a tool-result rewrite into the older shape (LEGACY-11), which the toy's
    // rewrite check read as a KeyError until it read such results as load's upgrade makes them.
    const toy = await fuzzIn(['--adapter-cmd', 'python3 examples/python-adapter/adapter.py', '--runs', '50', '--seed', '1', '--out', tempFolder()])
    expect(toy.stdout).toContain('50 runs, 50 probes, 34 of them compared')
    expect(toy.stdout).not.toContain('adapter fails')
    expect(toy.code).toBe(0)
  })

  it('warns of vectors earlier runs left in --out, which run --vectors would replay too', async () => {
    const outDir = tempFolder()
    const earlier = await fuzzIn(['--adapter-cmd', 'node tests/fakes/fake-adapter.mjs misorder', '--runs', '40', '--seed', '1', '--out', outDir])
    expect(earlier.code).toBe(1)
    expect(earlier.stderr).not.toContain('earlier runs wrote')
    const again = await fuzzIn(['--adapter', 'reference', '--runs', '5', '--seed', '1', '--out', outDir])
    expect(again.stdout).toContain('no disagreement')
    const summary = JSON.parse(readFileSync(join(outDir, 'fuzz-summary.json'), 'utf8')) as { probes: number; compared: number }
    expect(summary.compared).toBeLessThan(summary.probes)
    expect(again.stdout).toContain(`5 runs, ${summary.probes} probes, ${summary.compared} of them compared (the spec leaves the result of the other ${summary.probes - summary.compared} open) in `)
    expect(again.stdout).toMatch(/\n +load +\d+ probes?, \d+ compared: \d+ accepted and \d+ rejected by the reference\n/)
    expect(again.stderr).toMatch(new RegExp(`^warning: ${outDir.replace(/[\\^$.*+?()[\]{}|]/g, '\\$&')} also holds \\d+ vector files? that earlier runs wrote and this one did not \\(.*\\.yaml`))
  })

  it('looks for earlier vectors in --out walking each folder once, however many links lead back to it', async () => {
    // Followed until the system's ELOOP, two links back to --out made 2^40 paths.
    const outDir = tempFolder()
    mkdirSync(join(outDir, '05-surface'))
    writeFileSync(join(outDir, '05-surface', 'fuzz-earlier.yaml'), '')
    symlinkSync('.', join(outDir, 'again'))
    symlinkSync('.', join(outDir, 'and-again'))
    const run = await fuzzIn(['--adapter', 'reference', '--runs', '1', '--seed', '1', '--out', outDir])
    expect(run.stderr).toContain(`also holds 1 vector file that earlier runs wrote and this one did not (${join('05-surface', 'fuzz-earlier.yaml')})`)
  })

  it('fails a fuzz that compared nothing, and takes an in-process module with --adapter-module', async () => {
    const outDir = tempFolder()
    const module = join(outDir, 'no-profiles.ts')
    writeFileSync(module, `import { referenceAdapter } from '${join(projectRoot, 'conformance/adapters/reference.ts')}'\nexport const adapter = { ...referenceAdapter, meta: { ...referenceAdapter.meta, name: 'claims-nothing', profiles: [] } }\n`)
    const nothing = await fuzzIn(['--adapter-module', module, '--runs', '3', '--out', join(outDir, 'out')])
    expect(nothing.stdout).toContain('operations compared: none')
    expect(nothing.stderr).toContain('nothing was compared: claims-nothing claims no profile of the operations it provides')
    expect(nothing.code).toBe(1)
  })

  it('is a command of the dsh-conformance CLI', async () => {
    const noOut = await runCli(['fuzz', '--adapter', 'reference', '--runs', '5'])
    expect(noOut.code).toBe(2)
    expect(noOut.stderr).toContain('fuzz needs --out DIR')
  })

  it('parses its options', () => {
    expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o', '--runs=7', '--seed', '9', '--time-budget', '60', '--max-events', '12'])).toMatchObject({
      adapter: { kind: 'name', name: 'reference' }, outDir: 'o', runs: 7, seed: 9, timeBudgetSeconds: 60, maxEvents: 12,
    })
    expect(parseFuzzOptions(['--adapter', 'nope', '--out', 'o'])).toMatchObject({ error: expect.stringContaining('unknown adapter') })
    expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o', '--runs', '0'])).toMatchObject({ error: expect.stringContaining('--runs') })
    // Above a timer's maximum, Node would fire at once: a usage error, as run gives, not a failed fuzz.
    expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o', '--timeout', '3000000000'])).toMatchObject({ error: expect.stringContaining('--timeout can be at most 2147483647 ms') })
    expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o', '--timeout', '2147483647'])).toMatchObject({ timeoutMs: 2147483647 })
    // Decimal digits only: Number() would read these as 16, 1000, 5 and 7.
    for (const [option, value] of [['--runs', '0x10'], ['--seed', '1e3'], ['--timeout', ' 5'], ['--max-events', '+7']]) {
      expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o', option!, value!]), `${option} ${value}`).toMatchObject({ error: expect.stringContaining(`${option} needs`) })
    }
    expect(parseFuzzOptions(['--adapter', 'reference', '--adapter-cmd', 'x', '--out', 'o'])).toMatchObject({ error: expect.stringContaining('exactly one') })
    expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o', '--operation', 'surface,load', '--operation=surface'])).toMatchObject({ only: ['surface', 'load'] })
    expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o', '--operation', 'lod'])).toMatchObject({ error: expect.stringContaining('--operation needs operations the fuzzer probes (load, ') })
  })

  it('refuses an option that takes one value given twice, and adds up --operation', () => {
    const base = ['--adapter', 'reference', '--out', 'o']
    for (const option of ['--known', '--runs', '--seed', '--max-events', '--time-budget', '--timeout']) {
      expect(parseFuzzOptions([...base, option, '5', `${option}=6`])).toEqual({ error: `${option} is given twice` })
    }
    expect(parseFuzzOptions([...base, '--out', 'p'])).toEqual({ error: '--out is given twice' })
    expect(parseFuzzOptions([...base, '--operation', 'load', '--operation', 'surface'])).toMatchObject({ only: ['load', 'surface'] })
  })

  it('takes options only: a bare word is a usage error, not an adapter name or a folder', async () => {
    expect(parseFuzzOptions(['reference', '--out', 'o'])).toEqual({ error: 'fuzz takes options only, not reference' })
    expect(parseFuzzOptions(['--adapter', 'reference', 'out'])).toEqual({ error: 'fuzz takes options only, not out' })
    const bare = await fuzzIn(['--adapter', 'reference', '--out', tempFolder(), 'extra'])
    expect(bare).toEqual({ code: 2, stdout: '', stderr: 'fuzz takes options only, not extra\ndsh-conformance fuzz --help lists its options \n' })
  })

  it('warns that a --known file naming other adapters does not apply, and tolerates nothing', async () => {
    const outDir = tempFolder()
    const known = join(outDir, 'known.yaml')
    writeFileSync(known, "adapters: ['someone-else']\nknown:\n  - {class: everything, adapter: '*', why: would excuse every class of the adapters it names}\n")
    const run = await fuzzIn(['--adapter-cmd', 'node tests/fakes/fake-adapter.mjs misorder', '--runs', '10', '--seed', '1', '--out', join(outDir, 'out'), '--known', known])
    expect(run.stderr.split('\n')[0]).toBe(`warning: ${known} does not apply to fake-misorder; nothing is tolerated `)
    expect(run.stdout).toContain('NEW   surface: ')
    expect(run.stdout).not.toContain('KNOWN everything')
    expect(run.code).toBe(1)
  })

  it('exits 2, fuzzing nothing, when the --known file cannot be read', async () => {
    const outDir = tempFolder()
    const missing = join(outDir, 'no-such-known.yaml')
    const run = await fuzzIn(['--adapter', 'reference', '--runs', '1', '--out', join(outDir, 'out'), '--known', missing])
    expect(run.code).toBe(2)
    expect(run.stdout).toBe('')
    expect(run.stderr).toBe(`cannot read the known-divergences file ${missing}: no such file or folder \n`)
    expect(readdirSync(outDir)).toEqual([])
  })

  it('draws a progress bar on stderr only when stderr is a terminal, and clears it when done', async () => {
    const drawnOn = async (tty: boolean): Promise<string[]> => {
      const drawn: string[] = []
      const wasTty = process.stderr.isTTY
      const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array) => drawn.push(String(chunk)) > 0)
      Object.defineProperty(process.stderr, 'isTTY', { value: tty, configurable: true })
      try {
        expect((await fuzzIn(['--adapter', 'reference', '--runs', '3', '--seed', '1', '--out', tempFolder()])).code).toBe(0)
      } finally {
        write.mockRestore()
        Object.defineProperty(process.stderr, 'isTTY', { value: wasTty, configurable: true })
      }
      return drawn
    }
    const terminal = await drawnOn(true)
    expect(terminal).toContain(`\r\x1b[Kreference [${'#'.repeat(24)}] 3/3 runs`)
    expect(terminal.at(-1)).toBe('\r\x1b[K')
    expect(await drawnOn(false)).toEqual([])
  })

  it('exits 1 with one sentence, as run and compare do, when the adapter cannot start: the adapter failed, not the fuzzer', async () => {
    const outDir = tempFolder()
    const crashed = await fuzzIn(['--adapter-cmd', 'exit 1', '--runs', '1', '--out', outDir])
    expect(crashed).toEqual({ code: 1, stdout: '', stderr: 'the adapter could not be started: crash: the adapter process ended (exit code 1) \n' })
    // An adapter's own words on why it ended follow, as run prints them.
    const traced = await fuzzIn(['--adapter-cmd', `node -e "process.stderr.write('Traceback\\\\nImportError: fastjson\\\\n'); process.exit(1)"`, '--runs', '1', '--out', outDir])
    expect(traced).toEqual({
      code: 1, stdout: '',
      stderr: 'the adapter could not be started: crash: the adapter process ended (exit code 1); its stderr ends with: "Traceback | ImportError: fastjson"\n--- last lines of the adapter\'s stderr ---\nTraceback\nImportError: fastjson \n',
    })
    const missing = join(outDir, 'no-such-adapter.mjs')
    const absent = await fuzzIn(['--adapter-module', missing, '--runs', '1', '--out', outDir])
    expect(absent.code).toBe(1)
    expect(absent.stderr).toMatch(new RegExp(`^the adapter could not be started: Cannot find module '(file://)?${missing}'[^\n]*\n$`))
  })

  it('refuses, as run does, an adapter that claims a profile or provides an operation the spec does not have', async () => {
    const outDir = tempFolder()
    const moduleClaiming = (profiles: string, operations: string): string => {
      const path = join(outDir, `adapter-${profiles}-${operations}.mjs`)
      writeFileSync(path, `export const adapter = { meta: { name: 'typo', version: '1', language: 'js', profiles: ['${profiles}'] }, operations: { ${operations}: () => ({ ok: true, value: [] }) } }\n`)
      return path
    }
    const profile = await fuzzIn(['--adapter-module', moduleClaiming('readr', 'load'), '--runs', '1', '--out', join(outDir, 'a')])
    expect(profile).toEqual({ code: 1, stdout: '', stderr: 'the adapter could not be started: the adapter claims unknown profile(s) readr (profiles: reader, writer, relations, repair, compaction, fork, jsonl, storage) \n' })
    const operation = await fuzzIn(['--adapter-module', moduleClaiming('reader', 'lod'), '--runs', '1', '--out', join(outDir, 'b')])
    expect(operation.code).toBe(1)
    expect(operation.stderr).toMatch(/^the adapter could not be started: the adapter provides unknown operation\(s\) lod \(operations: load, /)
  })

  it('exits 2, naming the file in the way and opening no adapter, when the --out folder cannot be made', async () => {
    const outDir = tempFolder()
    const file = join(outDir, 'file')
    writeFileSync(file, '')
    for (const out of [join(file, 'out'), file]) {
      const run = await fuzzIn(['--adapter-cmd', 'exit 1', '--runs', '1', '--out', out])
      expect(run).toEqual({ code: 2, stdout: '', stderr: `cannot make the --out folder ${out}: ${file} is a file, not a folder \n` })
    }
  })

  it('keeps a class whose vector cannot be written, saying why on its line and in the summary, and still exits 1', async () => {
    const outDir = tempFolder()
    // The chapter's folder is a file: the vector of the surface class has nowhere to go.
    writeFileSync(join(outDir, '05-surface'), '')
    const run = await fuzzIn(['--adapter-cmd', 'node tests/fakes/fake-adapter.mjs misorder', '--runs', '10', '--seed', '2', '--out', outDir])
    expect(run.stdout).toContain('NEW   surface: ')
    expect(run.stdout).toMatch(/\n {6}warning: the vector could not be written: ENOTDIR: not a directory, open '[^']*\/05-surface\/fuzz-[0-9a-f]{12}\.yaml'\n/)
    expect(run.stdout).not.toMatch(/ vector fuzz-/)
    expect(run.code).toBe(1)
    const summary = JSON.parse(readFileSync(join(outDir, 'fuzz-summary.json'), 'utf8')) as { findings: { vector?: unknown; problem?: string }[] }
    expect(summary.findings).toHaveLength(1)
    expect(summary.findings[0]!.vector).toBeUndefined()
    expect(summary.findings[0]!.problem).toMatch(/^the vector could not be written: ENOTDIR/)
  })

  it('compares only the operations --operation names', async () => {
    const only = await fuzzIn(['--adapter', 'reference', '--runs', '3', '--seed', '1', '--out', tempFolder(), '--operation', 'messages,append'])
    expect(only.stdout).toMatch(/operations compared: messages, append \n/)
    expect(only.code).toBe(0)
  })
})

describe('the shrinker\'s log cuts', () => {
  it('renumber later events and every seq they name, and drop citations of removed events', () => {
    const events = [
      { type: 'assistant/chunk', seq: 0, time: 1, data: {} },
      { type: 'assistant/chunk', seq: 1, time: 1, data: {} },
      { type: 'assistant/message', seq: 2, time: 1, data: {}, surfaceOp: 'append', sourceEventSeqs: [0, 1] },
      { type: 'compaction/prune', seq: 3, time: 1, data: { shadowedRange: { start: 2, end: 2 }, shadowedSeqs: [2] } },
      { type: 'user/message', seq: 4, time: 1, data: {}, surfaceOp: { op: 'replace', start: 2, end: 2 }, sourceEventSeqs: [2] },
    ]
    const cut = withoutEvents({ index: 0, events }, new Set([0]))
    expect(cut.events).toEqual([
      { type: 'assistant/chunk', seq: 0, time: 1, data: {} },
      { type: 'assistant/message', seq: 1, time: 1, data: {}, surfaceOp: 'append', sourceEventSeqs: [0] },
      { type: 'compaction/prune', seq: 2, time: 1, data: { shadowedRange: { start: 1, end: 1 }, shadowedSeqs: [1] } },
      { type: 'user/message', seq: 3, time: 1, data: {}, surfaceOp: { op: 'replace', start: 1, end: 1 }, sourceEventSeqs: [1] },
    ])
    const bothChunks = withoutEvents({ index: 0, events }, new Set([0, 1]))
    expect(bothChunks.events[0]).toEqual({ type: 'assistant/message', seq: 0, time: 1, data: {}, surfaceOp: 'append' })
  })

  it('leaves a range it renumbers without the end it lacks, so a malformed range keeps its fault', () => {
    const events = [
      { type: 'user/message', seq: 0, time: 1, data: {}, surfaceOp: 'append' },
      { type: 'user/message', seq: 1, time: 1, data: {}, surfaceOp: 'append' },
      { type: 'compaction/summary', seq: 2, time: 1, data: { shadowedRange: { start: 1 }, shadowedSeqs: [1] } },
      { type: 'turn/start', seq: 3, time: 1, data: { turn: 1 }, surfaceOp: { op: 'replace', start: 1 } },
    ]
    const cut = withoutEvents({ index: 0, events }, new Set([0]))
    // toStrictEqual: a member holding undefined would be a lossless JSON fault of its own (JSON-6).
    expect(cut.events.slice(1)).toStrictEqual([
      { type: 'compaction/summary', seq: 1, time: 1, data: { shadowedRange: { start: 0 }, shadowedSeqs: [0] } },
      { type: 'turn/start', seq: 2, time: 1, data: { turn: 1 }, surfaceOp: { op: 'replace', start: 0 } },
    ])
  })
})
