// The lookups that keep the audit linear (conformance/audit/brackets.ts, conformance/seq-search.ts) answer what a
// walk of the whole log answers: the bracket around a seq (strictly inside its start and the seq where
// it stops) and the first summary inside it, for brackets ended, cut by a later start, made stale by an
// end-seed, and left open to the end of the log.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compactionState, type BracketReport } from '../../reference/compaction.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { bracketSpans, spanAround } from '../../conformance/audit/brackets.ts'
import { firstSeqAfter, indexAfter } from '../../conformance/seq-search.ts'
import { runs } from '../properties/support.ts'

const TYPES = ['user/message', 'compaction/start', 'compaction/summary', 'compaction/end', 'session/end-seed'] as const

function eventsOf(types: readonly string[]): SessionEvent[] {
  return types.map((type, seq) => ({ type, seq, time: seq, data: {} }) as SessionEvent)
}

function bracketsOf(events: readonly SessionEvent[]): BracketReport[] {
  const state = compactionState(events)
  if (!state.ok) throw new Error(state.error.message)
  return state.value.brackets
}

// The walks these lookups replaced, kept here as the oracle.
function walkedLimit(events: readonly SessionEvent[], bracket: BracketReport): number {
  if (bracket.endSeq !== null) return bracket.endSeq
  const cut = events.find(event => event.seq > bracket.startSeq && (event.type === 'session/end-seed' || event.type === 'compaction/start'))
  return cut === undefined ? Number.POSITIVE_INFINITY : cut.seq
}

function walkedBracket(events: readonly SessionEvent[], brackets: readonly BracketReport[], seq: number): BracketReport | undefined {
  return brackets.find(bracket => bracket.startSeq < seq && seq < walkedLimit(events, bracket))
}

function walkedSummary(events: readonly SessionEvent[], bracket: BracketReport, seq: number): number | undefined {
  return events.find(event => event.type === 'compaction/summary' && event.seq > bracket.startSeq && event.seq < seq)?.seq
}

describe('seq search', () => {
  it('finds the first seq after a seq, before, between and past the list', () => {
    const seqs = [3, 7, 12]
    expect([0, 3, 5, 7, 11, 12, 40].map(seq => firstSeqAfter(seqs, seq))).toEqual([3, 7, 7, 12, 12, undefined, undefined])
    expect(firstSeqAfter([], 5)).toBeUndefined()
    expect(indexAfter([{ at: 2 }, { at: 9 }], 2, item => item.at)).toBe(1)
  })
})

describe('bracket spans', () => {
  it('stop at the end, at the start that cuts them, at an end-seed, or never', () => {
    const events = eventsOf(['user/message', 'compaction/start', 'compaction/summary', 'user/message', 'compaction/end',
      'compaction/start', 'compaction/start', 'compaction/summary', 'session/end-seed', 'compaction/start', 'user/message'])
    const spans = bracketSpans(events, bracketsOf(events))
    expect(spans.map(({ bracket, limit, summarySeq }) => [bracket.startSeq, limit, summarySeq])).toEqual([
      [1, 4, 2], [5, 6, undefined], [6, 8, 7], [9, Number.POSITIVE_INFINITY, undefined],
    ])
    expect([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(seq => spanAround(spans, seq)?.bracket.startSeq)).toEqual([
      undefined, undefined, 1, 1, undefined, undefined, undefined, 6, undefined, undefined, 9,
    ])
  })

  it('answer as the walks of the whole log do, for any order of bracket events', () => {
    let inside = 0
    fc.assert(fc.property(fc.array(fc.constantFrom(...TYPES), { maxLength: 40 }), types => {
      const events = eventsOf(types)
      const brackets = bracketsOf(events)
      const spans = bracketSpans(events, brackets)
      for (let seq = 0; seq <= events.length; seq += 1) {
        const span = spanAround(spans, seq)
        const walked = walkedBracket(events, brackets, seq)
        expect(span?.bracket).toBe(walked)
        if (walked === undefined) continue
        inside += 1
        const summary = span?.summarySeq !== undefined && span.summarySeq < seq ? span.summarySeq : undefined
        expect(summary).toBe(walkedSummary(events, walked, seq))
      }
    }), runs(200))
    expect(inside).toBeGreaterThan(0)
  })
})
