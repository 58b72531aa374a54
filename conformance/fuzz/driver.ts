// The differential fuzzer: for each run, a drawn log (draw.ts), or a stored one (`--log`,
// stored-logs.ts), yields one probe per operation that both the adapter and the reference provide
// (probes.ts); each probe is run through both and judged (compare.ts). The first time a class of
// disagreement shows, the run is shrunk (shrink.ts) and the counterexample written as a vector
// (vector-writer.ts), which is then replayed with the runner: it must fail the adapter and pass the
// reference. Later runs of a known class are only counted.
import type { Adapter } from '../adapter.ts'
import { nameAndVersion } from '../results.ts'
import { referenceAdapter } from '../adapters/reference.ts'
import { runCase } from '../run-case.ts'
import { CRASHES_IN_A_ROW_TO_STOP } from '../suite.ts'
import type { OperationName, VectorCase } from '../vector-cases.ts'
import { adapterSide, compareProbe, probeOutcome, signatureOf, type Disagreement } from './compare.ts'
import { reference } from '../../reference/index.ts'
import { isOlderShape, MUTATIONS } from '../generators/index.ts'
import { drawRun, operatorsOf, storedLogRun, type DrawnRun, type FuzzRun } from './draw.ts'
import type { StoredLog } from './stored-logs.ts'
import { knownClassOf, type KnownClass } from './known.ts'
import { askingProfile, deriveProbe, OPERATION_PROFILE, PROBED_OPERATIONS } from './probes.ts'
import { OVER_LOADED_LOG } from '../input-domain.ts'
import { shrinkRun } from './shrink.ts'
import { writeVector, type WrittenVector } from './vector-writer.ts'
import { DEFAULT_TIMEOUT_MS } from '../subprocess-adapter.ts'
import { errorMessage } from '../wording.ts'

export interface FuzzOptions {
  runs: number
  seed: number
  outDir: string
  /** The largest target size of a generated log, in events; with `logs`, the most events a run takes of a stored log. */
  maxEvents: number
  timeBudgetMs?: number
  known?: readonly KnownClass[]
  /** The most candidate runs the shrinker checks per finding. */
  maxShrinkChecks?: number
  /** How long an in-process adapter may take to answer one probe (a subprocess adapter has its own). */
  timeoutMs?: number
  /** Compare only these operations (default: every one both sides provide). */
  only?: readonly OperationName[]
  /** Stored logs the runs take in turn instead of generated ones (`--log`). */
  logs?: readonly StoredLog[]
  /** The vocabulary the probes read the stored logs with (`--vocabulary`). */
  vocabulary?: string
  onProgress?: (progress: FuzzProgress) => void
}

export interface FuzzProgress {
  runsDone: number
  runs: number
  findings: number
  newFindings: number
}

export interface Finding {
  signature: string
  operation: string
  reference: string
  adapter: string
  /** The known class it falls in (--known), if any. */
  known?: string
  /** The first run that showed it, the operator that broke that run's log, and how many probes showed it. */
  firstRun: number
  mutation?: string
  /** That run's log was in older shapes. */
  olderShapes?: true
  /** That run's stored log (`--log`), when it took one. */
  log?: string
  occurrences: number
  detail: string
  divergingSeq?: number
  eventsBefore: number
  eventsAfter: number
  shrinkChecks: number
  vector?: WrittenVector
  /** Why the written vector does not reproduce the disagreement; undefined when it does. */
  problem?: string
}

export interface OperationCounts {
  probes: number
  compared: number
  rejected: number
}

export interface FuzzReport {
  adapter: string
  seed: number
  runs: number
  /**
   * The largest target size of a run's log (--max-events): with the seed, what reproduces the runs; with
   * stored logs, the most events a run took of one.
   */
  maxEvents: number
  runsDone: number
  stoppedByBudget: boolean
  /** The fuzz stopped asking the adapter: it crashed or timed out on CRASHES_IN_A_ROW_TO_STOP compared probes in a row. */
  stoppedByFailures: boolean
  operations: OperationName[]
  /** The operation inputs the runs yielded, and those of them whose result the spec defines: the adapter was judged on these. */
  probes: number
  compared: number
  /** The same per operation compared, with how many compared probes the reference rejects. */
  byOperation: Record<string, OperationCounts>
  /**
   * How many of the runs done each mutation operator broke (a run with two faults counts once for each
   * operator, and a run counts even when its rewrite into older shapes mended the fault), and how many
   * stayed valid. Every operator is listed, 0 for one these runs never drew; a run over a stored log
   * counts under none.
   */
  mutations: Record<string, number>
  /** How many of the runs done had their log rewritten into older shapes, or took a stored log holding them. */
  olderShapes: number
  /** The stored logs the runs took in turn (`--log`), in order; absent for generated logs. */
  logs?: string[]
  /** The vocabulary they were read with (`--vocabulary`), when one was given. */
  vocabulary?: string
  findings: Finding[]
  durationMs: number
}

const DEFAULT_SHRINK_CHECKS = 400
/** The runs that no operator broke, in FuzzReport.mutations. */
export const VALID = '(valid)'

function sortedByName(counts: Record<string, number>): Record<string, number> {
  return Object.fromEntries(Object.entries(counts).sort(([one], [other]) => (one < other ? -1 : 1)))
}

function sameDeparture(one: Disagreement, other: Disagreement): boolean {
  return one.reference === other.reference && one.adapter === other.adapter
}

/** The operations both sides provide, under a profile the adapter claims (a writer's load, surface and messages too). */
export function comparedOperations(adapter: Adapter): OperationName[] {
  return PROBED_OPERATIONS.filter(operation => adapter.operations[operation] !== undefined && referenceAdapter.operations[operation] !== undefined
    && askingProfile(operation, adapter.meta.profiles) !== undefined)
}

/** The probed operations of a profile the adapter claims that it does not provide: they are not compared. */
export function lackedOperations(adapter: Adapter): OperationName[] {
  return PROBED_OPERATIONS.filter(operation => adapter.meta.profiles.includes(OPERATION_PROFILE[operation]!) && adapter.operations[operation] === undefined)
}

/**
 * A log in older shapes, in current shapes: as the reference upgrades it (PROC-5) when load accepts it,
 * else its events before the rewrite (which may hold a fault the rewrite hid). It is marked as a twin,
 * so that each probe of it is the older log's probe, in other shapes.
 */
export function currentShapesTwin(run: DrawnRun): DrawnRun {
  const { currentShapes = run.events, olderShapes: _olderShapes, ...rest } = run
  const upgraded = reference.load({ header: run.header, events: run.events, ...(run.vocabulary === undefined ? {} : { vocabulary: run.vocabulary }) })
  return { ...rest, events: upgraded.ok ? upgraded.value : currentShapes, twinOfOlderShapes: true }
}

/**
 * A disagreement found on a log in older shapes is a class of the older shapes only when the log's
 * twin in current shapes does not show it too; otherwise it belongs to the log, and the twin is the run
 * it is recorded from.
 */
async function ownerOf(adapter: Adapter, run: DrawnRun, twin: () => DrawnRun, operation: OperationName, found: Disagreement, timeoutMs: number): Promise<{ run: DrawnRun; found: Disagreement }> {
  if (run.currentShapes === undefined) return { run, found }
  const onTwin = await disagreementOn(adapter, twin(), operation, timeoutMs)
  const { currentShapes: _currentShapes, ...older } = run
  return onTwin !== undefined && sameDeparture(onTwin, found) ? { run: twin(), found: onTwin } : { run: older, found }
}

/** Whether a run's log (or its append candidate) still holds a record in an older shape. */
function holdsOlderShape(run: FuzzRun): boolean {
  return run.events.some(isOlderShape) || isOlderShape(run.candidate)
}

/** What a disagreement says of an adapter that timed out. */
const TIMEOUT_SIDE = 'fails: timeout'

/**
 * Whether the adapter gave no answer for a crash or a timeout: one that does so on every probe would
 * otherwise take hours to say so (a timeout per probe, and per check of each class's shrinking).
 */
function crashedOrTimedOut(found: Disagreement | undefined): boolean {
  return found?.adapter === TIMEOUT_SIDE || found?.adapter === 'fails: crash'
}

async function disagreementOn(adapter: Adapter, run: DrawnRun, operation: OperationName, timeoutMs: number): Promise<Disagreement | undefined> {
  const probe = deriveProbe(run, operation)
  return probe === undefined ? undefined : compareProbe(referenceAdapter, adapter, probe, timeoutMs)
}

/** Replays the written vector with the runner: it must fail (or err on) the adapter and pass the reference. */
async function reproductionProblem(adapter: Adapter, vector: VectorCase, timeoutMs: number): Promise<string | undefined> {
  const onReference = await runCase(referenceAdapter, vector)
  if (onReference.status !== 'pass') return `the vector does not pass the reference: ${onReference.status} ${onReference.reason ?? ''}`
  const onAdapter = await runCase(adapter, vector, { timeoutMs })
  if (onAdapter.status === 'fail' || onAdapter.status === 'error') return undefined
  return `the vector does not fail the adapter: ${onAdapter.status} ${onAdapter.reason ?? ''}`
}

export async function fuzz(adapter: Adapter, options: FuzzOptions): Promise<FuzzReport> {
  if (options.logs?.length === 0) throw new Error('fuzz: logs is empty; leave it out to fuzz generated logs')
  const started = Date.now()
  const outOfTime = (): boolean => options.timeBudgetMs !== undefined && Date.now() - started >= options.timeBudgetMs
  const operations = comparedOperations(adapter).filter(operation => options.only === undefined || options.only.includes(operation))
  const findings = new Map<string, Finding>()
  const progress = (runsDone: number): void => options.onProgress?.({
    runsDone, runs: options.runs, findings: findings.size, newFindings: [...findings.values()].filter(finding => finding.known === undefined).length,
  })
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  let runsDone = 0
  let probes = 0
  let compared = 0
  const byOperation: Record<string, OperationCounts> = Object.fromEntries(operations.map(operation => [operation, { probes: 0, compared: 0, rejected: 0 }]))
  const mutations: Record<string, number> = Object.fromEntries([VALID, ...MUTATIONS.map(operator => operator.name)].map(name => [name, 0]))
  let olderShapes = 0

  async function record(run: DrawnRun, operation: OperationName, found: Disagreement): Promise<void> {
    const signature = signatureOf(found)
    const seen = findings.get(signature)
    if (seen !== undefined) {
      seen.occurrences += 1
      return
    }
    // A class of the older shapes keeps one in its counterexample.
    const stillDisagrees = async (candidate: DrawnRun): Promise<boolean> => {
      if (found.olderShapes === true && !holdsOlderShape(candidate)) return false
      const again = await disagreementOn(adapter, candidate, operation, timeoutMs)
      return again !== undefined && signatureOf(again) === signature
    }
    // Each check of a timeout class waits out the timeout: its run is kept as found.
    const maxChecks = found.adapter === TIMEOUT_SIDE ? 0 : options.maxShrinkChecks ?? DEFAULT_SHRINK_CHECKS
    let shrunk = await shrinkRun(run, stillDisagrees, { maxChecks, outOfTime })
    let probe = deriveProbe(shrunk.run, operation)!
    let final = await compareProbe(referenceAdapter, adapter, probe, timeoutMs)
    if (final === undefined) {
      // An adapter that answers the same input differently twice: keep the run as it was found.
      shrunk = { run, checks: shrunk.checks }
      probe = deriveProbe(run, operation)!
      final = found
    }
    const known = options.known === undefined ? undefined : knownClassOf(options.known, final)
    const finding: Finding = {
      signature, operation, reference: final.reference, adapter: adapterSide(final), firstRun: run.index, occurrences: 1, detail: final.detail,
      eventsBefore: run.events.length, eventsAfter: shrunk.run.events.length, shrinkChecks: shrunk.checks,
      ...(known === undefined ? {} : { known: known.class }),
      ...(run.mutation === undefined ? {} : { mutation: run.mutation }),
      ...(run.olderShapes === true ? { olderShapes: true } : {}),
      ...(run.storedLog === undefined ? {} : { log: run.storedLog }),
      ...(final.divergingSeq === undefined ? {} : { divergingSeq: final.divergingSeq }),
    }
    findings.set(signature, finding)
    try {
      const { written, vector } = writeVector(options.outDir, probe, final, { adapterName: adapter.meta.name, profile: askingProfile(probe.operation, adapter.meta.profiles), seed: options.seed, run: run.index, mutation: run.mutation, olderShapes: run.olderShapes === true, storedLog: run.storedLog })
      finding.vector = written
      finding.problem = await reproductionProblem(adapter, vector, timeoutMs)
    } catch (error) {
      finding.problem = `the vector could not be written: ${errorMessage(error)}`
    }
  }

  /** For stored logs, the report's maxEvents: the most events a run took of its log. */
  let mostEventsTaken = 0
  let failuresInARow = 0
  const stopAsking = (): boolean => failuresInARow >= CRASHES_IN_A_ROW_TO_STOP
  // A run the adapter's failures cut short is not done: its mutations and shapes are not counted.
  runs: for (let index = 0; index < options.runs; index += 1) {
    if (outOfTime() || stopAsking()) break
    const logs = options.logs
    const run = logs === undefined ? drawRun(options.seed, index, options.maxEvents) : storedLogRun(options.seed, index, logs[index % logs.length]!, options.maxEvents, options.vocabulary)
    mostEventsTaken = Math.max(mostEventsTaken, run.events.length)
    let loadFound: Disagreement | undefined
    // Built once per run, and only when a disagreement needs it.
    let twin: DrawnRun | undefined
    const twinOfRun = (): DrawnRun => (twin ??= currentShapesTwin(run))
    for (const operation of operations) {
      // A run over a long stored log can take minutes: the budget is kept between its probes too.
      if (stopAsking() || outOfTime()) break runs
      const probe = deriveProbe(run, operation)
      if (probe === undefined) continue
      probes += 1
      const counts = byOperation[operation]!
      counts.probes += 1
      const outcome = await probeOutcome(referenceAdapter, adapter, probe, timeoutMs)
      if (!outcome.compared) continue
      failuresInARow = crashedOrTimedOut(outcome.found) ? failuresInARow + 1 : 0
      compared += 1
      counts.compared += 1
      if (outcome.rejected) counts.rejected += 1
      const foundOnRun = outcome.found
      if (foundOnRun === undefined) continue
      const { run: owner, found } = await ownerOf(adapter, run, twinOfRun, operation, foundOnRun, timeoutMs)
      if (operation === 'load') loadFound = found
      // The operations that load their log first repeat load's disagreement: count it there once. (When
      // load's own probe was edited, its departure is another, and theirs is recorded as their own.)
      if (loadFound !== undefined && operation !== 'load' && OVER_LOADED_LOG.has(operation) && sameDeparture(found, loadFound) && found.olderShapes === loadFound.olderShapes) findings.get(signatureOf(loadFound))!.occurrences += 1
      else await record(owner, operation, found)
    }
    const operators = operatorsOf(run)
    // No operator had a stored log to break or keep valid: such runs count under none.
    if (run.storedLog === undefined) for (const operator of operators.length === 0 ? [VALID] : new Set(operators)) mutations[operator] = (mutations[operator] ?? 0) + 1
    if (run.olderShapes === true) olderShapes += 1
    runsDone += 1
    progress(runsDone)
  }
  return {
    adapter: nameAndVersion(adapter.meta, '@'), seed: options.seed, runs: options.runs, maxEvents: options.logs === undefined ? options.maxEvents : mostEventsTaken, runsDone, stoppedByBudget: runsDone < options.runs && !stopAsking(), stoppedByFailures: stopAsking(),
    operations, probes, compared, byOperation, mutations: sortedByName(mutations), olderShapes,
    ...(options.logs === undefined ? {} : { logs: options.logs.map(log => log.file) }),
    ...(options.vocabulary === undefined ? {} : { vocabulary: options.vocabulary }),
    findings: [...findings.values()], durationMs: Date.now() - started,
  }
}
