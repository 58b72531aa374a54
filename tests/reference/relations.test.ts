import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import {
  assistant, call, endSeed, event, replace, result, stepEnd, stepStart, turnEnd, turnStart, user,
} from './helpers.ts'

function violations(events: SessionEvent[]): unknown {
  const relations = reference.relations({ events })
  if (!relations.ok) throw new Error(`the log does not load: ${relations.error.code} at ${relations.error.seq}`)
  return relations.value.violations
}

const start = (seq: number, id: string, turn: number | null): SessionEvent => event('compaction/start', seq, { compactionId: id, turn })
const end = (seq: number, id: string, turn: number | null, extra: Record<string, unknown> = {}): SessionEvent =>
  event('compaction/end', seq, { compactionId: id, turn, ...extra })
const range = (seqs: number[]): Record<string, unknown> => ({
  shadowedRange: { start: seqs[0] ?? null, end: seqs[seqs.length - 1] ?? null }, shadowedSeqs: seqs, shadowedTokenCount: 10,
})
const summary = (seq: number, id: string, seqs: number[]): SessionEvent =>
  event('compaction/summary', seq, { compactionId: id, summary: [], provider: 'p', model: 'm', ...range(seqs) })
const prune = (seq: number, seqs: number[]): SessionEvent => event('compaction/prune', seq, range(seqs))
const checkpoint = (seq: number, id: string, from: number, to: number, sources: number[]): SessionEvent =>
  user(seq, replace(from, to, sources), { kind: 'plugin', plugin: 'compact', compactionId: id })

describe('relations: a vetoed event changes nothing (PROC-7)', () => {
  it('keeps the open turn when a nested turn/start is vetoed', () => {
    const events = [turnStart(0, 1), turnStart(1, 2), turnEnd(2, 1), turnStart(3, 2), turnEnd(4, 2)]
    expect(violations(events)).toEqual([{ code: 'TURN_ALREADY_OPEN', seq: 1 }])
  })

  it('does not open a turn whose turn/start was vetoed, and reports every later fault', () => {
    const events = [turnStart(0, 2), stepStart(1, 2, 1), turnEnd(2, 2), turnStart(3, 1), turnEnd(4, 1)]
    expect(violations(events)).toEqual([
      { code: 'TURN_NUMBER_INVALID', seq: 0 },
      { code: 'TURN_NOT_OPEN', seq: 1 },
      { code: 'TURN_NOT_OPEN', seq: 2 },
    ])
  })

  it('keeps a claim armed across a vetoed event', () => {
    const events = [turnStart(0, 1), user(1), user(2), start(3, 'c', 1), summary(4, 'c', [1, 2]),
      stepEnd(5, 1, 1), checkpoint(6, 'c', 2, 2, [3, 4, 2]), end(7, 'c', 1), turnEnd(8, 1)]
    expect(violations(events)).toEqual([
      { code: 'STEP_NOT_OPEN', seq: 5 },
      { code: 'COMPACTION_CLAIM_MISMATCH', seq: 6 },
    ])
  })
})

describe('relations: turns, steps and pairing', () => {
  it('tells the step-scoped failures apart (TURN-8)', () => {
    const events = [assistant(0, 1, 1), turnStart(1, 1), assistant(2, 1, 1), stepStart(3, 1, 1), assistant(4, 1, 2), stepEnd(5, 1, 1), turnEnd(6, 1)]
    expect(violations(events)).toEqual([
      { code: 'TURN_NOT_OPEN', seq: 0 },
      { code: 'STEP_NOT_OPEN', seq: 2 },
      { code: 'STEP_MISMATCH', seq: 4 },
    ])
  })

  it('pairs results with calls of the same step only (PAIR-2..4)', () => {
    const events = [turnStart(0, 1), stepStart(1, 1, 1), assistant(2, 1, 1, ['c1']), call(3, 1, 1, 'c1'), result(4, 1, 1, 'c1'),
      result(5, 1, 1, 'c1'), call(6, 1, 1, 'c2'), stepEnd(7, 1, 1), stepStart(8, 1, 2), result(9, 1, 2, 'c2'), stepEnd(10, 1, 2), turnEnd(11, 1)]
    expect(violations(events)).toEqual([
      { code: 'TOOL_RESULT_ORPHAN', seq: 5 },
      { code: 'TOOL_RESULT_ORPHAN', seq: 9 },
    ])
  })

  it('exempts a not-started result only when it is marked twice (PAIR-5)', () => {
    const notStarted = (seq: number, isError: boolean | undefined, code: string): SessionEvent => {
      const made = result(seq, 1, 1, `c${seq}`, {}, { error: { name: 'ToolNotStartedError', code } })
      const block = (made.data as { message: { content: Record<string, unknown>[] } }).message.content[0]!
      if (isError !== undefined) block['isError'] = isError
      return made
    }
    const events = [turnStart(0, 1), stepStart(1, 1, 1), notStarted(2, true, 'TOOL_NOT_STARTED'), notStarted(3, undefined, 'TOOL_NOT_STARTED'),
      notStarted(4, true, 'OTHER'), stepEnd(5, 1, 1), turnEnd(6, 1)]
    expect(violations(events)).toEqual([
      { code: 'TOOL_RESULT_ORPHAN', seq: 3 },
      { code: 'TOOL_RESULT_ORPHAN', seq: 4 },
    ])
  })

  it('needs only an open turn for a rewrite (REWR-5)', () => {
    const rewrite = (seq: number): SessionEvent => result(seq, 1, 1, 'c1', replace(4, 4, [4]), {})
    const original = result(4, 1, 1, 'c1')
    const sameId = (made: SessionEvent): SessionEvent => {
      (made.data as { message: { id: string } }).message.id = 'r4'
      return made
    }
    const events = [turnStart(0, 1), stepStart(1, 1, 1), assistant(2, 1, 1, ['c1']), call(3, 1, 1, 'c1'), original, stepEnd(5, 1, 1),
      turnEnd(6, 1), sameId(rewrite(7)), turnStart(8, 2), sameId(result(9, 1, 1, 'c1', replace(7, 7, [7]))), turnEnd(10, 2)]
    expect(violations(events)).toEqual([{ code: 'TURN_NOT_OPEN', seq: 7 }])
  })
})

describe('relations: the compaction bracket', () => {
  it('accepts a complete standalone transaction', () => {
    const events = [user(0), user(1), start(2, 'c', null), summary(3, 'c', [0, 1]), checkpoint(4, 'c', 0, 1, [2, 3, 0, 1]), end(5, 'c', null)]
    expect(violations(events)).toEqual([])
  })

  it('rejects a turn boundary inside a live bracket (COMP-8)', () => {
    expect(violations([start(0, 'c', null), turnStart(1, 1)])).toEqual([{ code: 'COMPACTION_TURN_CROSSES_BRACKET', seq: 1 }])
  })

  it('lets turn boundaries pass a bracket made stale by a later end-seed', () => {
    expect(violations([start(0, 'c', null), endSeed(1), turnStart(2, 1), turnEnd(3, 1)])).toEqual([])
  })

  it('lets repair closers cross an inherited stale orphan, and only with the end-seed after them', () => {
    const crashed = [turnStart(0, 1), start(1, 'c', 1), turnEnd(2, 1)]
    expect(violations([...crashed, endSeed(3)])).toEqual([])
    expect(violations(crashed)).toEqual([{ code: 'COMPACTION_TURN_CROSSES_BRACKET', seq: 2 }])
  })

  it('checks identity, owner, summary and end in the order of COMP-11', () => {
    const events = [start(0, '', null), start(1, 'c', 1), start(2, 'c', null), summary(3, 'd', [1]), end(4, 'c', 1),
      end(5, 'c', null), summary(6, 'c', []), start(7, 'e', null), end(8, 'c', null, { error: '' }), start(9, 'e', null)]
    expect(violations(events)).toEqual([
      { code: 'COMPACTION_ID_INVALID', seq: 0 },
      { code: 'COMPACTION_OWNER_MISMATCH', seq: 1 },
      { code: 'COMPACTION_ID_MISMATCH', seq: 3 },
      { code: 'COMPACTION_OWNER_MISMATCH', seq: 4 },
      { code: 'COMPACTION_END_WITHOUT_SUMMARY', seq: 5 },
      { code: 'COMPACTION_SUMMARY_INVALID', seq: 6 },
      { code: 'COMPACTION_ALREADY_OPEN', seq: 7 },
    ])
  })

  it('keeps a checkpoint inside its bracket and a replace on its claim (COMP-9, COMP-10)', () => {
    const outside = [user(0), checkpoint(1, 'c', 0, 0, [0]), start(2, 'c', null), checkpoint(3, 'd', 1, 1, [1])]
    expect(violations(outside)).toEqual([
      { code: 'COMPACTION_CHECKPOINT_OUTSIDE_BRACKET', seq: 1 },
      { code: 'COMPACTION_CHECKPOINT_OUTSIDE_BRACKET', seq: 3 },
    ])
    const mismatched = [user(0), user(1), prune(2, [0]), user(3, replace(1, 1, [1])), user(4, replace(0, 0, [0]))]
    expect(violations(mismatched)).toEqual([{ code: 'COMPACTION_CLAIM_MISMATCH', seq: 3 }])
  })
})
