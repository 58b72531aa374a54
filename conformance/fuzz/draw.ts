// What one fuzz run works on, drawn from the run's own seed: a log built by the generator library's
// model of a writer, either valid (some ending in a turn that leaves a tool result without its call on
// the surface) or broken by its mutation operators, and sometimes rewritten into the older shapes
// readers upgrade; and a plan that fixes every further choice (fork boundary, region, batch cuts,
// storage damage). A run depends only on the fuzz seed and its index, so `--runs 50` replays the first
// fifty runs of `--runs 5000`.
import { generateLog, inOlderShapes, isOlderShape, mutate, MUTATIONS, seededChooser, withResultOrphaned, type Chooser, type GeneratedLog, type LogEvent, type Mutation, type MutationCase } from '../generators/index.ts'

/** `tear` cuts the artifact anywhere in its record lines; `unterminated` just before one of their line feeds. */
export type StorageDamage = 'none' | 'tear' | 'unterminated' | 'garbage'

/** A position among some of the log's events: `at` thousandths of the way through the ones `among` names. */
export interface Position<Among extends string> {
  among: Among
  at: number
}

/** Choices that do not depend on the log's length: positions are fractions in thousandths. */
export interface RunPlan {
  /** Where a fork cuts: at any event, or at one after which no turn is open (the cuts FORK-3 accepts). */
  boundary: Position<'events' | 'between-turns'>
  /** Which surface node regionBalance looks at. */
  node: number
  /** regionBalance around one node, or over a region ending `regionWidth` thousandths later. */
  regionWidth: number | undefined
  /** surface over a window that starts this many thousandths into the log, if any (SURF-3). */
  window: number | undefined
  /** The request folds asked for the header in force at this point of the log, if any: at any event, or on a request record. */
  atSeq: Position<'events' | 'request-records'> | undefined
  /** append (when no operator broke a candidate): the event appended onto the ones before it; when undefined, the broken event, or else the last. */
  appendAt: number | undefined
  /** The compaction entry compactionState is asked about, if any. */
  entry: 'automatic' | 'manual' | undefined
  /**
   * Seeds the batch cuts of the JSONL encoding, and (salted: saltedChooser) the edits of the probes:
   * the snapshots headerEquals compares, the two-fault event and the surface-type lookalike load
   * meets, the logs relations reads, the stored headers requestHeader and the contexts requestContext
   * read, the packed row and the artifact text decodeJsonl meets and the chunks encodeJsonl packs (their
   * members' order, their deltas), fork's -0, boolean and non-number boundaries, regionBalance's edge,
   * the session id artifactPath is asked for, append's rewrite sharing a call id and its edited
   * candidates, the log cut with calls no closer can carry and the crash-tail edits that repair and
   * resume get (a last time of 0, turns beyond 32 bits), the message edits of messages,
   * surface's empty window, compactionState's entry of undefined and its log ended by an end-seed inside
   * a turn, the known types marked ignorable in the logs of compactionState and regionBalance, the
   * undefined members of artifactPath and fork, fork's early and zero now, store's undefined header and
   * the team/* event (with a vocabulary) that ends the log of an operation taking one.
   */
  batchSeed: number
  damage: StorageDamage
  damageAt: number
}

export interface FuzzRun {
  index: number
  /** The operators that broke the log, for mutated runs (`a + b` for two). */
  mutation?: string
  /** The log's events were then rewritten into the older shapes readers upgrade (LEGACY-5 to LEGACY-11). */
  olderShapes?: true
  /**
   * The run is the current-shapes twin of a log in older shapes (driver.ts), probed as that log was:
   * the edits made only of valid logs in current shapes (probes.ts) are not made of it either.
   */
  twinOfOlderShapes?: true
  header?: unknown
  events: unknown[]
  /** The seq of the event a load or relations operator broke (the one it predicts the fault at). */
  faultSeq?: number
  /** An append operator's broken candidate, appended onto `events`. */
  candidate?: unknown
  candidateTime?: number
  /** The file of the stored log the run took instead of a generated one (`fuzz --log`, stored-logs.ts). */
  storedLog?: string
  /** The vocabulary the probes that take one read that log with (`fuzz --vocabulary`); the reader's default when absent. */
  vocabulary?: string
}

export interface DrawnRun extends FuzzRun {
  plan: RunPlan
  /** For a log in older shapes, its events before the rewrite: the twin that tells a class of the older shapes from one of the log. */
  currentShapes?: unknown[]
}

/** A 32-bit hash of the fuzz seed and a run index (a murmur3-style finalizer), so neighbouring runs are unrelated. */
export function runSeed(seed: number, index: number): number {
  let state = (Math.imul(seed >>> 0, 0x9e3779b9) + Math.imul(index + 1, 0x85ebca6b)) >>> 0
  state = Math.imul(state ^ (state >>> 16), 0x21f0aaad) >>> 0
  state = Math.imul(state ^ (state >>> 15), 0x735a2d97) >>> 0
  return (state ^ (state >>> 15)) >>> 0
}

/** Percent of runs that keep the generated log valid; the others are mutated. */
const VALID_PERCENT = 35
/** Percent of the valid runs whose log then gets a turn that leaves a tool result without its call on the surface (REGION-2). */
const ORPHANING_PERCENT = 20
/** Percent of runs whose log is then rewritten into older shapes, valid and broken ones alike. */
const OLDER_SHAPES_PERCENT = 30
/** Percent of the runs a log-breaking operator broke that a second one breaks further, so the checks' order is compared. */
const SECOND_FAULT_PERCENT = 25
/**
 * How many logs a mutated run draws looking for one its operator applies to. The operator is drawn
 * first, uniformly, so that operators which apply only to rare shapes (a compaction that failed, a
 * tool-result rewrite) are drawn as often as the others; when none of the logs suits it, the run
 * takes any operator that applies to the last one.
 */
const LOG_ATTEMPTS = 24

function position<Among extends string>(chooser: Chooser, among: readonly Among[]): Position<Among> {
  return { among: among[chooser.int(among.length)]!, at: chooser.int(1000) }
}

function drawPlan(chooser: Chooser): RunPlan {
  const damage = (['none', 'none', 'tear', 'unterminated', 'garbage'] as const)[chooser.int(5)]!
  return {
    boundary: position(chooser, ['events', 'between-turns']),
    node: chooser.int(1000),
    regionWidth: chooser.int(2) === 0 ? undefined : chooser.int(1000),
    window: chooser.int(4) === 0 ? chooser.int(1000) : undefined,
    atSeq: chooser.int(3) === 0 ? undefined : position(chooser, ['events', 'request-records']),
    appendAt: chooser.int(2) === 0 ? undefined : chooser.int(1000),
    entry: ([undefined, 'automatic', 'manual'] as const)[chooser.int(3)],
    batchSeed: chooser.int(0x7fffffff),
    damage,
    damageAt: chooser.int(1000),
  }
}

/** The drawn operator applied to the first of up to LOG_ATTEMPTS logs it applies to, else any operator that applies to the last. */
function brokenLog(chooser: Chooser, drawLog: () => GeneratedLog): { log: GeneratedLog; mutated: MutationCase | undefined } {
  const operator = MUTATIONS[chooser.int(MUTATIONS.length)]!
  let log = drawLog()
  for (let attempt = 1; attempt < LOG_ATTEMPTS && !operator.applicable(log); attempt += 1) log = drawLog()
  return { log, mutated: operator.applicable(log) ? operator.apply(log, chooser) : mutate(log, chooser) }
}

const FAULT_SEPARATOR = ' + '

/** The names of the operators that broke a run's log, in the order they did; none for a valid log. */
export function operatorsOf(run: FuzzRun): string[] {
  return run.mutation?.split(FAULT_SEPARATOR) ?? []
}

const LOG_BREAKERS = MUTATIONS.filter(operator => operator.operation !== 'append')

/**
 * A second fault on a log a load or relations operator broke, by one more such operator. Operators
 * read a log as valid, so one that cannot make sense of the broken log (it throws) leaves it as it is.
 */
function withSecondFault(first: MutationCase, chooser: Chooser): MutationCase {
  const broken = { header: first.header, events: first.events as LogEvent[] }
  const candidates = LOG_BREAKERS.filter(operator => applies(operator, broken))
  if (candidates.length === 0) return first
  const second = candidates[chooser.int(candidates.length)]!
  try {
    const twice = second.apply(broken, chooser)
    // A header fault has no seq: the run's event fault stays the first one's.
    return { ...twice, seq: twice.seq ?? first.seq, mutation: `${first.mutation}${FAULT_SEPARATOR}${second.name}` }
  } catch {
    return first
  }
}

function applies(operator: Mutation, log: { header?: unknown; events: readonly LogEvent[] }): boolean {
  try {
    return operator.applicable(log)
  } catch {
    return false
  }
}

function drawnLog(index: number, plan: RunPlan, chooser: Chooser, maxEvents: number): DrawnRun {
  const drawLog = (): GeneratedLog => generateLog(chooser, { size: 1 + chooser.int(maxEvents) })
  if (chooser.int(100) < VALID_PERCENT) {
    const log = drawLog()
    const orphaned = chooser.int(100) < ORPHANING_PERCENT ? withResultOrphaned(log, chooser) : undefined
    return { index, plan, header: log.header, events: orphaned ?? log.events }
  }
  const broken = brokenLog(chooser, drawLog)
  let mutated = broken.mutated
  if (mutated === undefined) return { index, plan, header: broken.log.header, events: broken.log.events }
  if (mutated.operation !== 'append' && chooser.int(100) < SECOND_FAULT_PERCENT) mutated = withSecondFault(mutated, chooser)
  const run: DrawnRun = { index, plan, mutation: mutated.mutation, header: mutated.header, events: mutated.events }
  if (mutated.operation === 'append') {
    run.candidate = mutated.candidate
    run.candidateTime = lastTime(mutated.events) ?? broken.log.header.createdAt
  } else run.faultSeq = mutated.seq
  return run
}

export function drawRun(seed: number, index: number, maxEvents: number): DrawnRun {
  const chooser = seededChooser(runSeed(seed, index))
  const plan = drawPlan(chooser)
  const run = drawnLog(index, plan, chooser, maxEvents)
  if (chooser.int(100) >= OLDER_SHAPES_PERCENT) return run
  const events = inOlderShapes(run.events as LogEvent[], chooser)
  if (events.every((event, at) => event === run.events[at])) return run
  return { ...run, events, olderShapes: true, currentShapes: run.events }
}

/**
 * A run over a stored log (`fuzz --log`): its header and records as decoded, cut to its first
 * `maxEvents` events, each run a copy of its own, with a plan drawn from the seed and the index as for
 * any run, so that a log taken again is probed at other places. No operator breaks it and it is not
 * rewritten: it holds what a writer wrote, in older shapes when that writer wrote them. Its twin in
 * current shapes is then the log as the reference upgrades it (driver.ts's currentShapesTwin), or, when
 * load rejects it, the log itself: a class the twin shows too is the log's, not one of the older shapes.
 */
export function storedLogRun(seed: number, index: number, log: { file: string; header: unknown; events: readonly unknown[] }, maxEvents: number, vocabulary?: string): DrawnRun {
  const plan = drawPlan(seededChooser(runSeed(seed, index)))
  const events = structuredClone(log.events.slice(0, maxEvents)) as unknown[]
  const olderShapes = events.some(isOlderShape) ? { olderShapes: true as const, currentShapes: events } : {}
  return { index, plan, header: structuredClone(log.header), events, storedLog: log.file, ...olderShapes, ...(vocabulary === undefined ? {} : { vocabulary }) }
}

function lastTime(events: readonly unknown[]): number | undefined {
  const last = events.at(-1)
  const time = typeof last === 'object' && last !== null ? (last as Record<string, unknown>)['time'] : undefined
  return typeof time === 'number' ? time : undefined
}
