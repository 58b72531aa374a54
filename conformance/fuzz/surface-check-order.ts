// The load probe, one plan in four, over a valid log in current shapes with one event given two
// surface faults at once, where a port that runs SURF-9's checks in another order reports the second:
// a log-only event carrying a surfaceOp or sourceEventSeqs that SURF-2 or chapter 06 would refuse too
// (SURF-1 first: SURFACE_OP_NOT_ALLOWED); a surface event without its surfaceOp whose sourceEventSeqs
// is malformed (SURFACE_OP_MISSING); a replace whose start and end are both no current node
// (SURFACE_REPLACE_START_NOT_FOUND, SURF-4 looks start up first); or a replace whose end is no current
// node and whose citation list is empty (SURFACE_REPLACE_END_NOT_FOUND before chapter 06); or a replace
// of earlier nodes that cites only itself or a later seq (PROVENANCE_NOT_EARLIER before
// PROVENANCE_INCOMPLETE, PROV-8). The log is valid up to that event, so load rejects it there. The
// generators' operators plant one fault at a time, and their one two-fault marker is one draw among
// many, so before, a port with the order upside down rarely met a probe that told. Drawn from a seed of
// the run's plan, as the headerEquals pairs are (header-pairs.ts), so the fuzzer's other draws stay as
// they were and a shrunk log draws alike.
import { isRecord } from '../../reference/lossless-json.ts'
import { saltedChooser, type Chooser } from '../generators/index.ts'
import { atOneOf, indexesWhere, typeOf } from './record-edits.ts'

/** Salts the plan's seed, so that this draw is none of the other edits' nor the batch cuts'. */
const SURFACE_ORDER_SALT = 0x53524639

type EventRecord = Record<string, unknown>
type LogEdit = (events: readonly unknown[], chooser: Chooser) => unknown[] | undefined

const SURFACE_TYPES = new Set(['user/message', 'assistant/message', 'tool/result'])

const isSurfaceEvent = (event: unknown): boolean => SURFACE_TYPES.has(typeOf(event) as string)
const isAppended = (event: unknown): boolean => isSurfaceEvent(event) && isRecord(event) && event['surfaceOp'] === 'append'

/** Markers no log-only event may carry, each also wrong by SURF-2 or chapter 06 for a surface event. */
const MALFORMED_MARKERS: readonly (readonly [string, unknown])[] = [
  ['surfaceOp', { op: 'replace', start: 0 }], ['surfaceOp', { op: 'replace', start: 0, end: 0, note: 'x' }],
  ['surfaceOp', 'replace'], ['surfaceOp', [0, 0]], ['sourceEventSeqs', 'x'], ['sourceEventSeqs', [-1]], ['sourceEventSeqs', [true]],
]

/** Malformed citation lists (chapter 06), for a surface event whose surfaceOp is gone. */
const MALFORMED_SOURCES: readonly unknown[] = ['x', [-1], [true], [0.5], null]

/** A log-only event with a marker that is malformed too: SURF-1's refusal comes first. */
const markerOnLogOnly: LogEdit = (events, chooser) => {
  const [name, value] = MALFORMED_MARKERS[chooser.int(MALFORMED_MARKERS.length)]!
  return atOneOf(events, indexesWhere(events, event => isRecord(event) && !isSurfaceEvent(event)), chooser, event => ({ ...event, [name]: value }))
}

/** A surface event without its surfaceOp, citing malformed sources: SURFACE_OP_MISSING comes first. */
const missingBesideBadSources: LogEdit = (events, chooser) => {
  const sources = MALFORMED_SOURCES[chooser.int(MALFORMED_SOURCES.length)]
  return atOneOf(events, indexesWhere(events, isSurfaceEvent), chooser, event => {
    const { surfaceOp: _op, ...rest } = event
    return { ...rest, sourceEventSeqs: sources }
  })
}

/**
 * An appended surface event made a replace from an earlier log-only event's seq to its own seq: neither
 * is a node (SURF-4), and start is looked up first.
 */
const neitherEndpointANode: LogEdit = (events, chooser) => {
  const logOnlySeqs = events.flatMap(event => (isRecord(event) && !isSurfaceEvent(event) && typeof event['seq'] === 'number' ? [event['seq']] : []))
  const logOnlyBefore = (event: unknown): number[] => logOnlySeqs.filter(seq => seq < ((event as EventRecord)['seq'] as number))
  return atOneOf(events, indexesWhere(events, event => isAppended(event) && logOnlyBefore(event).length > 0), chooser, event => {
    const earlier = logOnlyBefore(event)
    return { ...event, surfaceOp: { op: 'replace', start: earlier[chooser.int(earlier.length)]!, end: event['seq'] } }
  })
}

/** The seqs of the nodes an append-only prefix of the log holds before `index`, when no replace came before. */
function appendedSeqsBefore(events: readonly unknown[], index: number): number[] | undefined {
  const before = events.slice(0, index)
  if (before.some(event => isSurfaceEvent(event) && !isAppended(event))) return undefined
  return before.filter(isAppended).map(event => (event as EventRecord)['seq'] as number)
}

/**
 * An appended surface event, after appends alone, made a replace from an earlier node to its own seq
 * with an empty citation list: end is no node (SURF-4), which comes before chapter 06's checks.
 */
const endMissingBesideNoSources: LogEdit = (events, chooser) =>
  atOneOf(events, indexesWhere(events, (event, index) => isAppended(event) && (appendedSeqsBefore(events, index)?.length ?? 0) > 0), chooser, (event, index) => {
    const nodes = appendedSeqsBefore(events, index)!
    return { ...event, surfaceOp: { op: 'replace', start: nodes[chooser.int(nodes.length)]!, end: event['seq'] }, sourceEventSeqs: [] }
  })

/**
 * An appended surface event, after appends alone, made a replace of a span of the earlier nodes that
 * cites only itself or a later seq: chapter 06 looks at lateness (PROVENANCE_NOT_EARLIER) before it looks
 * at what the replace shadows (PROVENANCE_INCOMPLETE).
 */
const lateBesideIncomplete: LogEdit = (events, chooser) =>
  atOneOf(events, indexesWhere(events, (event, index) => isAppended(event) && (appendedSeqsBefore(events, index)?.length ?? 0) > 0), chooser, (event, index) => {
    const nodes = appendedSeqsBefore(events, index)!
    const start = chooser.int(nodes.length)
    const end = start + chooser.int(nodes.length - start)
    return { ...event, surfaceOp: { op: 'replace', start: nodes[start]!, end: nodes[end]! }, sourceEventSeqs: [(event['seq'] as number) + chooser.int(2)] }
  })

const EDITS: readonly LogEdit[] = [markerOnLogOnly, missingBesideBadSources, neitherEndpointANode, endMissingBesideNoSources, lateBesideIncomplete]

/**
 * The log edited as drawn, or undefined when the draw keeps it or the log holds nothing the edit
 * changes. Whether and which edit is drawn before any look at the log.
 */
export function withSurfaceFaultPair(events: readonly unknown[], planSeed: number): unknown[] | undefined {
  const chooser = saltedChooser(planSeed, SURFACE_ORDER_SALT)
  if (chooser.int(4) !== 0) return undefined
  return EDITS[chooser.int(EDITS.length)]!(events, chooser)
}
