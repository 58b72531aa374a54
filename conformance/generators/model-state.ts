// The state of the log model (log-model.ts) and the one way events enter it. Every event the model
// writes goes through `write`, which keeps the surface, the open turn and the fork boundaries current.
import { chance, pick, type Chooser } from './choices.ts'
import { INHERITED_NAMES, type Draft, type HeaderChoice, type JsonObject, type LogEvent, type ToolCallBlock } from './events.ts'
import { applySurfaceEvent, type SurfaceNode } from './surface-model.ts'

export interface BracketRecord {
  startSeq: number
  endSeq: number | null
  compactionId: string
  outcome: 'completed' | 'irregular' | 'failed-clean' | 'failed-partial' | 'orphaned-live' | 'orphaned-stale'
}

/** The open compaction bracket and the region it will replace (chosen legal when it starts). */
export interface BracketState {
  compactionId: string
  commandId: string | undefined
  owner: number | null
  startSeq: number
  region: number[]
}

export interface CallState {
  block: ToolCallBlock
  /**
   * `twin`: a block repeating the id of an earlier block of its message. The one result that id may
   * have (PAIR-3) answers the first, so a twin is never called nor answered (PAIR-6, REGION-3).
   */
  status: 'asked' | 'started' | 'answered' | 'twin'
  callSeq?: number
  /**
   * Repair's map no longer holds the call: a rewrite of an earlier result with its id came after it
   * (REPAIR-4's finding), so repair writes no closer for it and, left open, it stays unanswered.
   */
  forgotten?: true
}

export interface StepState {
  phase: 'stream' | 'tools' | 'done'
  calls: CallState[]
}

export interface Model {
  chooser: Chooser
  events: LogEvent[]
  time: number
  openTurn: number | null
  lastTurn: number
  nextStep: number
  step: StepState | undefined
  nodes: SurfaceNode[]
  bracket: BracketState | undefined
  brackets: BracketRecord[]
  headerChoice: HeaderChoice | undefined
  headerInForce: JsonObject | null
  contextInForce: JsonObject | null
  /** HDR-6: the next model request of this loop instance needs a snapshot whatever the header. */
  needsSnapshot: boolean
  stableBoundaries: number[]
  /** Tool-call blocks left without results (PAIR-6): of abandoned steps, twins, forgotten calls a crash closed. */
  unansweredCalls: number
}

export type Action = readonly [name: string, weight: number, run: (model: Model) => void]

/** Appends `draft` as the next event; `time` pins the time (repair closers), else the clock moves on. */
export function write(model: Model, draft: Draft, time?: number): LogEvent {
  const seq = model.events.length
  if (time === undefined) model.time += chance(model.chooser, 3) ? -model.chooser.int(5) : model.chooser.int(40)
  const event: LogEvent = { type: draft.type, seq, time: time ?? model.time, data: draft.data }
  if (draft.surfaceOp !== undefined) event.surfaceOp = draft.surfaceOp
  if (draft.sourceEventSeqs !== undefined) event.sourceEventSeqs = draft.sourceEventSeqs
  if (draft.ignorable !== undefined) event.ignorable = draft.ignorable
  model.events.push(event)
  model.nodes = applySurfaceEvent(model.nodes, event).nodes
  if (event.type === 'turn/start') model.openTurn = (event.data as JsonObject)['turn'] as number
  if (event.type === 'turn/end') model.openTurn = null
  if (model.openTurn === null) model.stableBoundaries.push(seq)
  return event
}

export function nextSeq(model: Model): number {
  return model.events.length
}

/** The id of the message the next event holds: `msg-N` by its seq, now and then a name an object inherits. */
export function messageId(model: Model): string {
  return chance(model.chooser, 3) ? pick(model.chooser, INHERITED_NAMES) : `msg-${nextSeq(model)}`
}

export function openTurnNumber(model: Model): number {
  if (model.openTurn === null) throw new Error('no open turn')
  return model.openTurn
}

