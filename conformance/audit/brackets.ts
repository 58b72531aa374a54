// Where each compaction bracket of a loaded log reaches and the summary inside it, found in one pass
// over the log, so that the bracket around a replace is a lookup rather than a walk of the log (which
// made the audit of a log with many brackets and replaces grow with their product).
import type { BracketReport } from '../../reference/compaction.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { indexAfter } from '../seq-search.ts'

export interface BracketSpan {
  bracket: BracketReport
  /** The seq at which it stops: its end, else the marker or next start that cut it, else never. */
  limit: number
  /** The first compaction/summary inside it, if any. */
  summarySeq: number | undefined
}

function limitOf(events: readonly SessionEvent[], bracket: BracketReport): number {
  if (bracket.endSeq !== null) return bracket.endSeq
  for (let seq = bracket.startSeq + 1; seq < events.length; seq += 1) {
    const type = events[seq]!.type
    if (type === 'session/end-seed' || type === 'compaction/start') return seq
  }
  return Number.POSITIVE_INFINITY
}

function firstSummary(events: readonly SessionEvent[], startSeq: number, limit: number): number | undefined {
  for (let seq = startSeq + 1; seq < limit && seq < events.length; seq += 1) {
    if (events[seq]!.type === 'compaction/summary') return seq
  }
  return undefined
}

/**
 * The spans of `brackets` (compactionState's, in log order), over `events` indexed by seq. A bracket
 * stops where the next one could start at the latest, so the spans are disjoint and in order, and each
 * of the walks above crosses the log at most once in all.
 */
export function bracketSpans(events: readonly SessionEvent[], brackets: readonly BracketReport[]): BracketSpan[] {
  return brackets.map(bracket => {
    const limit = limitOf(events, bracket)
    return { bracket, limit, summarySeq: firstSummary(events, bracket.startSeq, limit) }
  })
}

/** The span whose bracket holds `seq` strictly inside it, if one does. */
export function spanAround(spans: readonly BracketSpan[], seq: number): BracketSpan | undefined {
  // The last span starting before seq is the only one that can hold it.
  const span = spans[indexAfter(spans, seq - 1, item => item.bracket.startSeq) - 1]
  return span !== undefined && seq < span.limit ? span : undefined
}
