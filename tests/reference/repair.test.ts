import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { assistant, call, endSeed, event, result, stepEnd, stepStart, turnEnd, turnStart, user } from './helpers.ts'

function closers(events: SessionEvent[]): SessionEvent[] {
  const repaired = reference.repair({ events })
  if (!repaired.ok) throw new Error(`the log does not load: ${repaired.error.code}`)
  return repaired.value.closers
}

const UNKNOWN_TEXT = 'The tool call was interrupted after it was recorded, but no result was durably recorded. Its outcome is unknown. '
  + 'Decide whether to retry from the tool semantics: retry only if the operation is read-only or idempotent; if it may have side effects, '
  + 'first verify external state or ask the user. Do not retry blindly.'
const NOT_STARTED_TEXT = 'The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed.'

function syntheticResult(seq: number, callId: string, started: number | undefined): SessionEvent {
  const text = started === undefined ? NOT_STARTED_TEXT : UNKNOWN_TEXT
  const error = started === undefined
    ? { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' }
    : { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' }
  const message = {
    id: `interrupted-tool-result-${callId}-${seq}`,
    role: 'user',
    source: { kind: 'tool', callId },
    content: [{ type: 'tool-result', toolCallId: callId, isError: true, content: [{ type: 'text', text }] }],
  }
  return {
    type: 'tool/result', seq, time: 1003, data: { turn: 1, step: 1, message, error }, surfaceOp: 'append',
    ...(started === undefined ? {} : { sourceEventSeqs: [started] }),
  }
}

describe('repair closers', () => {
  it('closes the example of chapter 12: started call, never-started call, step, turn', () => {
    const events = [turnStart(0, 1), stepStart(1, 1, 1), assistant(2, 1, 1, ['call-a', 'call-b']), call(3, 1, 1, 'call-a')]
    expect(closers(events)).toEqual([
      syntheticResult(4, 'call-a', 3),
      syntheticResult(5, 'call-b', undefined),
      { type: 'step/end', seq: 6, time: 1003, data: { turn: 1, step: 1 } },
      { type: 'turn/end', seq: 7, time: 1003, data: { turn: 1, reason: { kind: 'interrupted' } } },
    ])
  })

  it('returns nothing for an empty or balanced log, and is idempotent', () => {
    const events = [turnStart(0, 1), stepStart(1, 1, 1), assistant(2, 1, 1, ['c']), call(3, 1, 1, 'c')]
    const repaired = [...events, ...closers(events)]
    expect(closers([])).toEqual([])
    expect(closers([turnStart(0, 1), turnEnd(1, 1)])).toEqual([])
    expect(closers(repaired)).toEqual([])
    expect(closers([...repaired, endSeed(repaired.length)])).toEqual([])
  })

  it('ignores calls without a block, calls of closed steps and answered calls', () => {
    const events = [turnStart(0, 1), stepStart(1, 1, 1), assistant(2, 1, 1, ['a', 'b']), call(3, 1, 1, 'a'), result(4, 1, 1, 'a'),
      stepEnd(5, 1, 1), stepStart(6, 1, 2), call(7, 1, 2, 'orphan')]
    expect(closers(events)).toEqual([
      { type: 'step/end', seq: 8, time: 1007, data: { turn: 1, step: 2 } },
      { type: 'turn/end', seq: 9, time: 1007, data: { turn: 1, reason: { kind: 'interrupted' } } },
    ])
  })

  it('keeps a re-registered id at its first position with the newer step and no call seq (REPAIR-3)', () => {
    const events = [turnStart(0, 1), stepStart(1, 1, 1), assistant(2, 1, 1, ['x', 'y']), call(3, 1, 1, 'x'),
      assistant(4, 1, 1, ['x'])]
    const found = closers(events).map(closer => (closer.data as { message?: { id: string } }).message?.id)
    expect(found).toEqual(['interrupted-tool-result-x-5', 'interrupted-tool-result-y-6', undefined, undefined])
    expect(closers(events)[0]).not.toHaveProperty('sourceEventSeqs')
  })

  it('resume appends the closers and then the end-seed marker (SEED-10)', () => {
    const events = [turnStart(0, 1), user(1)]
    expect(reference.resume({ events, now: 5000 })).toEqual({
      ok: true,
      value: [...events,
        { type: 'turn/end', seq: 2, time: 1001, data: { turn: 1, reason: { kind: 'interrupted' } } },
        event('session/end-seed', 3, {}, { time: 5000 })],
    })
  })
})
