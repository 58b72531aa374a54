// The streaming relations (two relation states while a bracket's staleness is open) against the
// reference's runRelations, which knows the whole log up front: random event sequences over a small
// alphabet of relation-relevant events, so that brackets, stale brackets, turns inside them and
// repeated row members all meet often.
import { describe, expect, it } from 'vitest'
import { runRelations } from '../../reference/processing.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { RelationStream } from '../../conformance/check/relations-stream.ts'
import { MOST_VIOLATIONS_LISTED, type ViolationList } from '../../conformance/check/violation-list.ts'
import { RequirementIndex } from '../../conformance/check/requirements.ts'
import { random } from './log-generator.ts'

type Draft = Omit<SessionEvent, 'seq' | 'time'>

const RESULT_MESSAGE = { id: 'r', role: 'user', content: [{ type: 'tool-result', toolCallId: 'c', content: [], isError: false }], source: { kind: 'tool', callId: 'c' } }

const ALPHABET: ((next: () => number) => Draft)[] = [
  next => ({ type: 'turn/start', data: { turn: 1 + Math.floor(next() * 3) } }),
  next => ({ type: 'turn/end', data: { turn: 1 + Math.floor(next() * 3), reason: { kind: 'completed' } } }),
  () => ({ type: 'step/start', data: { turn: 1, step: 1 } }),
  () => ({ type: 'step/end', data: { turn: 1, step: 1 } }),
  () => ({ type: 'assistant/chunk', data: { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: 'x' } } }),
  () => ({ type: 'todo/write', data: { todos: [] } }),
  next => ({ type: 'compaction/start', data: { compactionId: next() < 0.7 ? 'a' : 'b', turn: next() < 0.6 ? null : 1 } }),
  next => ({ type: 'compaction/summary', data: { compactionId: 'a', shadowedSeqs: [0], shadowedRange: { start: 0, end: 0 }, shadowedTokenCount: 1, ...(next() < 0.1 ? { shadowedTokenCount: -1 } : {}) } }),
  next => ({ type: 'compaction/end', data: { compactionId: next() < 0.8 ? 'a' : 'b', turn: next() < 0.6 ? null : 1 } }),
  () => ({ type: 'session/end-seed', data: {} }),
  () => ({ type: 'tool/call', data: { turn: 1, step: 1, callId: 'c', name: 't', arguments: '{}' } }),
  // An append-origin result and a rewrite: outside a turn they break different rules (TURN-8, TURN-9).
  () => ({ type: 'tool/result', data: { turn: 1, step: 1, message: RESULT_MESSAGE }, surfaceOp: 'append' }),
  () => ({ type: 'tool/result', data: { turn: 1, step: 1, message: RESULT_MESSAGE }, surfaceOp: { op: 'replace', start: 0, end: 0 } }),
]

function randomLog(seed: number, least = 5, most = 45): SessionEvent[] {
  const next = random(seed)
  const length = least + Math.floor(next() * (most - least))
  return Array.from({ length }, (_, seq) => ({ ...(ALPHABET[Math.floor(next() * ALPHABET.length)] as (n: () => number) => Draft)(next), seq, time: seq }))
}

function streamedList(events: readonly SessionEvent[], repeatChunks: boolean): ViolationList {
  const stream = new RelationStream()
  for (const [index, event] of events.entries()) {
    const previous = events[index - 1]
    // Consecutive chunks stand for the members of one row: the later ones repeat the first.
    if (repeatChunks && event.type === 'assistant/chunk' && previous?.type === 'assistant/chunk') stream.repeatLast(event.seq, 1, index)
    else stream.step(event, index)
  }
  return stream.finish()
}

function streamed(events: readonly SessionEvent[], repeatChunks: boolean): { code: string; seq: number }[] {
  return streamedList(events, repeatChunks).listed.map(({ code, seq }) => ({ code, seq }))
}

describe('streaming relations', () => {
  it('report exactly the violations runRelations reports', () => {
    let stale = 0
    for (let seed = 1; seed <= 2500; seed++) {
      const events = randomLog(seed)
      const expected = runRelations(events).violations.map(({ code, seq }) => ({ code, seq }))
      expect(streamed(events, false), `seed ${seed}`).toEqual(expected)
      expect(streamed(events, true), `seed ${seed}, chunks as rows`).toEqual(expected)
      if (expected.length > 0 && events.some(event => event.type === 'session/end-seed')) stale++
    }
    expect(stale).toBeGreaterThan(50)
  })

  it('list the first 10,000 violations runRelations reports, and count the rest by kind from the first of each', () => {
    for (const seed of [1, 2, 3]) {
      const events = randomLog(seed, 40_000, 50_000)
      const expected = runRelations(events).violations
      expect(expected.length, `seed ${seed}`).toBeGreaterThan(MOST_VIOLATIONS_LISTED + 1000)
      for (const repeatChunks of [false, true]) {
        const list = streamedList(events, repeatChunks)
        expect(list.listed.map(({ code, seq }) => ({ code, seq }))).toEqual(expected.slice(0, MOST_VIOLATIONS_LISTED).map(({ code, seq }) => ({ code, seq })))
        expect(list.total()).toBe(expected.length)
        const kinds = new Map<string, { count: number; firstSeq: number }>()
        for (const violation of expected.slice(MOST_VIOLATIONS_LISTED)) {
          const event = events[violation.seq]!
          const kind = `${violation.code} ${event.type} ${typeof event.surfaceOp === 'object' && event.surfaceOp !== null}`
          const seen = kinds.get(kind)
          kinds.set(kind, { count: (seen?.count ?? 0) + 1, firstSeq: seen?.firstSeq ?? violation.seq })
        }
        const counted = [...list.unlisted.values()].map(({ count, first }) => [`${first.code} ${first.eventType} ${first.replaces}`, { count, firstSeq: first.seq }])
        expect(new Map(counted as [string, { count: number; firstSeq: number }][])).toEqual(kinds)
        expect([...kinds.keys()]).toEqual(expect.arrayContaining(['TURN_NOT_OPEN tool/result true', 'TURN_NOT_OPEN tool/result false']))
      }
    }
  })

  it('say whether a vetoed event replaces, which decides the turn rule it broke', () => {
    const message = { id: 'r', role: 'user', content: [{ type: 'tool-result', toolCallId: 'c', content: [], isError: false }], source: { kind: 'tool', callId: 'c' } }
    const result = (seq: number, surfaceOp: unknown): SessionEvent => ({ type: 'tool/result', seq, time: seq, data: { turn: 1, step: 1, message }, surfaceOp })
    const stream = new RelationStream()
    // No turn is open: an append-origin result breaks TURN-8, a replacement one TURN-9.
    stream.step(result(0, 'append'), 2)
    stream.step(result(1, { op: 'replace', start: 0, end: 0 }), 3)
    const requirements = new RequirementIndex()
    expect(stream.finish().listed.map(violation => [violation.seq, violation.code, violation.replaces, requirements.ofViolation(violation)]))
      .toEqual([[0, 'TURN_NOT_OPEN', false, 'TURN-8'], [1, 'TURN_NOT_OPEN', true, 'TURN-9']])
  })
})
