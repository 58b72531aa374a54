// Edits the shrinker tries on a run's log. Removing events renumbers what follows and every member
// that names a seq (surfaceOp ends, citations, compaction claims, title and command references), so
// a cut keeps the log as consistent as it was; citations of a removed event are dropped. Records of
// any shape pass through: what a member is not, it is left as it is.
import { BASE_TIME } from '../builder.ts'
import type { FuzzRun } from './draw.ts'
import { isNonNegativeSafeInteger, isRecord } from '../../reference/lossless-json.ts'
import { indexAfter } from '../seq-search.ts'

type Shift = (seq: number) => number
type Record_ = Record<string, unknown>

/**
 * A number that can name a seq (ENV-4); `-0` and 2^53, which a fuzzed record may hold in its place,
 * name none. Shifting 2^53 down would make the seq usable and the fault another.
 */
function isSeqLike(value: unknown): value is number {
  return isNonNegativeSafeInteger(value)
}

function shifted(value: unknown, shift: Shift): unknown {
  return isSeqLike(value) ? shift(value) : value
}

/** A range's `start` and `end` renumbered; a member it lacks stays absent (a malformed range keeps its fault). */
function withEndsShifted(range: Record_, shift: Shift): Record_ {
  const copy = { ...range }
  for (const end of ['start', 'end']) if (end in copy) copy[end] = shifted(copy[end], shift)
  return copy
}

/** A list of seqs renumbered, without the removed ones. */
function shiftedList(value: unknown, shift: Shift, removed: ReadonlySet<number>): unknown {
  if (!Array.isArray(value)) return value
  return value.filter(seq => !(isSeqLike(seq) && removed.has(seq))).map(seq => shifted(seq, shift))
}

function remapData(type: unknown, data: Record_, shift: Shift, removed: ReadonlySet<number>): Record_ {
  const copy = { ...data }
  if (type === 'compaction/summary' || type === 'compaction/prune') {
    if (isRecord(copy['shadowedRange'])) copy['shadowedRange'] = withEndsShifted(copy['shadowedRange'], shift)
    if ('shadowedSeqs' in copy) copy['shadowedSeqs'] = shiftedList(copy['shadowedSeqs'], shift, removed)
  }
  if (type === 'session/title' && 'messageSeqs' in copy) copy['messageSeqs'] = shiftedList(copy['messageSeqs'], shift, removed)
  if (type === 'command/done' && 'sourceEventSeq' in copy) copy['sourceEventSeq'] = shifted(copy['sourceEventSeq'], shift)
  return copy
}

function remapRecord(record: unknown, shift: Shift, removed: ReadonlySet<number>): unknown {
  if (!isRecord(record) || Object.getPrototypeOf(record) !== Object.prototype) return record
  const copy: Record_ = { ...record }
  if ('seq' in copy) copy['seq'] = shifted(copy['seq'], shift)
  const op = copy['surfaceOp']
  if (isRecord(op)) copy['surfaceOp'] = withEndsShifted(op, shift)
  if (Array.isArray(copy['sourceEventSeqs'])) {
    const kept = shiftedList(copy['sourceEventSeqs'], shift, removed) as unknown[]
    // An emptied list would be a fault of its own (PROV-2) where the original had none.
    if (kept.length > 0 || (copy['sourceEventSeqs'] as unknown[]).length === 0) copy['sourceEventSeqs'] = kept
    else delete copy['sourceEventSeqs']
  }
  if (isRecord(copy['data'])) copy['data'] = remapData(copy['type'], copy['data'], shift, removed)
  return copy
}

/** The run without the events at `positions`; later seqs and the seqs members name move down. */
export function withoutEvents(run: FuzzRun, positions: ReadonlySet<number>): FuzzRun {
  const sorted = [...positions].sort((a, b) => a - b)
  // Shifted seqs are integers (isSeqLike), so the positions below one are those at most one less; found
  // by halving: every seq of a log is shifted, and a stored log may hold 100,000.
  const shift: Shift = seq => seq - indexAfter(sorted, seq - 1, position => position)
  const events = run.events.filter((_, index) => !positions.has(index)).map(record => remapRecord(record, shift, positions))
  const cut: FuzzRun = { ...run, events }
  if (run.candidate !== undefined) cut.candidate = remapRecord(run.candidate, shift, positions)
  if (run.faultSeq !== undefined) {
    // The broken event moves with the cut, or is gone with it.
    if (positions.has(run.faultSeq)) delete cut.faultSeq
    else cut.faultSeq = shift(run.faultSeq)
  }
  return cut
}

/** The run with the builder's clock: event i at BASE_TIME + i, so vectors need not spell times out. */
export function withBuilderClock(run: FuzzRun): FuzzRun {
  // A time that is no writer's clock (a fault an operator put there) is kept.
  const events = run.events.map((record, index) => (isRecord(record) && isNonNegativeSafeInteger(record['time']) ? { ...record, time: BASE_TIME + index } : record))
  const clocked: FuzzRun = { ...run, events }
  if (run.candidateTime !== undefined) clocked.candidateTime = BASE_TIME + events.length
  return clocked
}

const SHORT_TEXT = 8

function shortened(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 3 * SHORT_TEXT ? Array.from(value).slice(0, SHORT_TEXT).join('') : value
  if (Array.isArray(value)) return value.map(shortened)
  if (!isRecord(value) || Object.getPrototypeOf(value) !== Object.prototype) return value
  return Object.fromEntries(Object.entries(value).map(([key, member]) => [key, shortened(member)]))
}

/** The run with every long string in the events' data cut short (texts, summaries, arguments). */
export function withShortTexts(run: FuzzRun): FuzzRun {
  const events = run.events.map(record => (isRecord(record) && 'data' in record ? { ...record, data: shortened(record['data']) } : record))
  const short: FuzzRun = { ...run, events }
  if (isRecord(run.candidate) && 'data' in run.candidate) short.candidate = { ...run.candidate, data: shortened(run.candidate['data']) }
  return short
}

/** Simpler headers to try, simplest first: none at all (META-11 synthesizes one), then the required members. */
export function simplerHeaders(header: unknown): unknown[] {
  if (!isRecord(header)) return header === undefined ? [] : [undefined]
  const required = Object.fromEntries(['version', 'id', 'createdAt'].filter(key => key in header).map(key => [key, header[key]]))
  return Object.keys(required).length < Object.keys(header).length ? [undefined, required] : [undefined]
}
