import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import { assistant, event, longestSparse, result, todo, turnEnd, turnStart, user } from './helpers.ts'

const codeOf = (outcome: { ok: boolean; error?: { code: string } }): string | undefined => outcome.error?.code

describe('load phases (PROC-2)', () => {
  const unknown = event('acme/thing', 1, {})
  const badMessage = event('user/message', 2, { id: '', role: 'user', content: [], source: { kind: 'user' } }, { surfaceOp: 'append' })

  it('reports a foreign header version before anything else, after identity', () => {
    const events = [event('mode/set', 0, {})]
    expect(codeOf(reference.load({ header: { version: 1, id: 's', createdAt: 0 }, events }))).toBe('FORMAT_VERSION_NEWER')
    expect(codeOf(reference.load({ header: { version: -1, id: 's', createdAt: 0 }, events, sessionId: 's' }))).toBe('FORMAT_VERSION_OLDER')
    expect(codeOf(reference.load({ header: { version: 1, id: 'other', createdAt: 0 }, events, sessionId: 's' }))).toBe('HEADER_ID_MISMATCH')
    expect(codeOf(reference.load({ header: { version: '0', id: 's', createdAt: 0 }, events }))).toBe('HEADER_FIELD_INVALID')
  })

  it('reports shape damage before an unknown type, and an unknown type before replay damage (UNK-5)', () => {
    expect(reference.load({ events: [todo(0), unknown, badMessage] })).toMatchObject({ ok: false, error: { code: 'MESSAGE_ID_INVALID', seq: 2 } })
    expect(reference.load({ events: [todo(0), unknown, event('todo/write', 5, {})] })).toMatchObject({ ok: false, error: { code: 'FORMAT_UNKNOWN_EVENT_TYPE', seq: 1 } })
    expect(codeOf(reference.load({ events: [event('mode/set', 0, {}), unknown, badMessage] }))).toBe('LEGACY_EVENT_TYPE')
  })

  it('keeps an ignorable unknown event, refuses one with any other ignorable value', () => {
    const kept = event('acme/thing', 0, { n: 1 }, { ignorable: true })
    expect(reference.load({ events: [kept] })).toEqual({ ok: true, value: [kept] })
    expect(codeOf(reference.load({ events: [event('acme/thing', 0, {}, { ignorable: false })] }))).toBe('FORMAT_UNKNOWN_EVENT_TYPE')
    expect(codeOf(reference.load({ events: [event('todo/write', 0, {}, { ignorable: false })] }))).toBe('ENV_IGNORABLE_INVALID')
    const team = event('team/task', 0, {})
    expect(reference.load({ events: [team], vocabulary: 'v0-rc8' })).toEqual({ ok: true, value: [team] })
  })

  it('reads a hole of a sparse events array as the record undefined, not an object (JSON-13), without throwing', () => {
    const events: unknown[] = [turnStart(0, 1)]
    events.length = 2
    expect(reference.load({ events })).toMatchObject({ ok: false, error: { code: 'ENV_NOT_OBJECT', seq: 1 } })
  })

  // A sparse array of the longest length and a few elements: reading it index by index (Array.from)
  // ran out of memory; each answer here takes milliseconds, the test's time limit one second.
  it('answers on a sparse events array of length 2^32 - 1 by the records it holds', { timeout: 1000 }, () => {
    expect(reference.load({ events: longestSparse({ 0: turnStart(0, 1) }) })).toMatchObject({ ok: false, error: { code: 'ENV_NOT_OBJECT', seq: 1 } })
    // Records after the first hole still take part in the phases before replay (PROC-2)...
    expect(reference.load({ events: longestSparse({ 0: turnStart(0, 1), 7: event('mode/set', 7, {}) }) })).toMatchObject({ ok: false, error: { code: 'LEGACY_EVENT_TYPE', seq: 7 } })
    // ...and replay stops at the first hole, whatever follows it.
    expect(reference.load({ events: longestSparse({ 0: turnStart(0, 1), 1: todo(1), 4_000_000_000: todo(9) }) })).toMatchObject({ ok: false, error: { code: 'ENV_NOT_OBJECT', seq: 2 } })
    expect(reference.surface({ events: longestSparse({ 0: turnStart(0, 1) }) })).toMatchObject({ ok: false, error: { code: 'ENV_NOT_OBJECT', seq: 1 } })
  })

  it('stores and encodes batches of length 2^32 - 1 by the records they hold', { timeout: 1000 }, () => {
    const header = { version: 0, id: 's', createdAt: 0 }
    expect(reference.store({ header, batches: [longestSparse({ 0: turnStart(0, 1) })] })).toMatchObject({ ok: false, error: { code: 'JSON_UNDEFINED', seq: 1 } })
    // A hole in the list of batches is a batch of no records.
    expect(reference.store({ header, batches: longestSparse({ 3: [turnStart(0, 1)] }) })).toMatchObject({ ok: true, value: { events: [turnStart(0, 1)] } })
    expect(reference.encodeJsonl({ header, batches: longestSparse({ 3: longestSparse({ 0: turnStart(0, 1) }) }) })).toMatchObject({ ok: true })
  })

  it('runs the envelope checks in order on the replay phase (ENV-8)', () => {
    expect(reference.load({ events: [null] })).toMatchObject({ ok: false, error: { code: 'ENV_NOT_OBJECT', seq: 0 } })
    expect(codeOf(reference.load({ events: [{ type: 'todo/write', seq: 0, time: 1, data: {}, extra: 1 }] }))).toBe('ENV_UNKNOWN_KEY')
    expect(codeOf(reference.load({ events: [{ type: 'todo/write', seq: 1.5, time: 1.5, data: {} }] }))).toBe('ENV_SEQ_INVALID')
    expect(codeOf(reference.load({ events: [{ type: 'todo/write', seq: 0, time: 1 }] }))).toBe('ENV_DATA_MISSING')
    expect(reference.load({ events: [todo(0), todo(2)] })).toMatchObject({ ok: false, error: { code: 'ENV_SEQ_NOT_CONTIGUOUS', seq: 2 } })
  })

  it('upgrades legacy shapes and returns the upgraded events (LEGACY-6, LEGACY-11)', () => {
    const events = [
      turnStart(0, 1),
      event('tool/result', 1, { turn: 1, step: 1, callId: 'c', content: [], isError: false }, { surfaceOp: 'append' }),
      event('tool/result', 2, { turn: 1, step: 1, callId: 'c', content: [{ type: 'text', text: 'short' }], isError: false },
        { surfaceOp: { op: 'replace', start: 1, end: 1 }, sourceEventSeqs: [1] }),
      event('turn/end', 3, { turn: 1, reason: { kind: 'aborted' } }),
    ]
    const loaded = reference.load({ events, sessionId: 's-1' })
    expect(loaded.ok).toBe(true)
    const value = (loaded as { value: SessionEvent[] }).value
    expect((value[1]!.data as { message: { id: string } }).message.id).toBe('legacy-message:s-1:1')
    expect((value[2]!.data as { message: { id: string } }).message.id).toBe('legacy-message:s-1:1')
    expect(value[3]!.data).toEqual({ turn: 1, reason: { kind: 'aborted', reason: { kind: 'legacy' } } })
  })

  it('rejects a malformed stored turn/end (TURN-2)', () => {
    const events = [turnStart(0, 1), event('turn/end', 1, { turn: 1, reason: { kind: 'completed', note: 'x' } })]
    expect(reference.load({ events })).toMatchObject({ ok: false, error: { code: 'TURN_END_MALFORMED', seq: 1 } })
  })
})

describe('append (PROC-3, PROC-4)', () => {
  it('checks message shapes like load does (PROC-3)', () => {
    const data = { turn: 1, step: 1, message: { id: 'a', role: 'assistant', content: [], source: { kind: 'plugin', plugin: 'x' } } }
    const appended = reference.append({ events: [], candidate: { type: 'assistant/message', data, surfaceOp: 'append' }, time: 1 })
    expect(appended).toMatchObject({ ok: false, error: { code: 'MESSAGE_SOURCE_INVALID', seq: 0 } })
  })

  it('rejects retired types on the writer side, mode/set and steering/message included', () => {
    for (const type of ['mode/set', 'request/header-delta', 'steering/message']) {
      expect(codeOf(reference.append({ events: [], candidate: { type, data: {} }, time: 1 }))).toBe('LEGACY_EVENT_TYPE')
    }
  })

  it('rejects a candidate with members of its own seq, time or ignorable (ENV-2)', () => {
    expect(codeOf(reference.append({ events: [], candidate: { type: 'x', data: 1, seq: 0 }, time: 1 }))).toBe('ENV_UNKNOWN_KEY')
  })

  it('accepts any type string on append, unknown types included (UNK-2)', () => {
    expect(reference.append({ events: [event('acme/thing', 0, {})], candidate: { type: '', data: null }, time: 7 }))
      .toEqual({ ok: true, value: { type: '', seq: 1, time: 7, data: null } })
  })
})

describe('the other views', () => {
  it('derives messages and skips empty assistant content (DER-4)', () => {
    const events = [turnStart(0, 1), user(1), assistant(2, 1, 1), turnEnd(3, 1)]
    expect(reference.messages({ events })).toEqual({ ok: true, value: [events[1]!.data] })
  })

  it('folds the request header canonically and the context whole (HDR-3, HDR-8)', () => {
    const header = (seq: number, extra: object): SessionEvent =>
      event('request/header', seq, { header: { config: { provider: 'p', model: 'm' }, ...extra }, reason: 'initial' })
    const events = [header(0, { system: '', tools: [], adapterDefaults: {} }), header(1, { system: 'hi' }), event('request/context', 2, 'x')]
    expect(reference.requestHeader({ events, atSeq: 0 })).toEqual({ ok: true, value: { config: { provider: 'p', model: 'm' } } })
    expect(reference.requestHeader({ events })).toEqual({ ok: true, value: { config: { provider: 'p', model: 'm' }, system: 'hi' } })
    expect(reference.requestContext({ events })).toEqual({ ok: true, value: {} })
    expect(reference.requestContext({ events, atSeq: 1 })).toEqual({ ok: true, value: null })
  })

  it('answers region balance by position and count (REGION-6)', () => {
    const events = [turnStart(0, 1), user(1), todo(2), assistant(3, 1, 1, ['c']), todo(4), result(5, 1, 1, 'c')]
    expect(reference.regionBalance({ events, seq: 3 })).toEqual({ ok: true, value: { before: true, after: false } })
    expect(reference.regionBalance({ events, start: 1, end: 5 })).toEqual({ ok: true, value: { shadowedRange: { start: 1, end: 5 }, shadowedSeqs: [1, 3, 5] } })
    expect(reference.regionBalance({ events, start: 1, end: 3 })).toMatchObject({ ok: false, error: { code: 'REGION_UNBALANCED', seq: 3 } })
    expect(reference.regionBalance({ events, seq: 2 })).toMatchObject({ ok: false, error: { code: 'REGION_NOT_ON_SURFACE', seq: 2 } })
  })

  it('reports the lock and each bracket (COMP-17)', () => {
    const events = [event('compaction/start', 0, { compactionId: 'a', turn: null }), event('compaction/end', 1, { compactionId: 'a', turn: null, error: 'x' }),
      event('compaction/start', 2, { compactionId: 'b', turn: null })]
    expect(reference.compactionState({ events })).toEqual({
      ok: true,
      value: {
        open: { startSeq: 2, compactionId: 'b', turn: null, live: true },
        brackets: [{ startSeq: 0, endSeq: 1, compactionId: 'a', outcome: 'failed-clean' }, { startSeq: 2, endSeq: null, compactionId: 'b', outcome: 'orphaned-live' }],
      },
    })
    expect(reference.compactionState({ events, entry: 'manual' })).toMatchObject({ ok: false, error: { code: 'COMPACTION_BUSY', seq: 2 } })
  })

  it('forks at a stable prefix (FORK-8)', () => {
    const events = [turnStart(0, 1), user(1), turnEnd(2, 1), event('compaction/start', 3, { compactionId: 'c', turn: null })]
    const header = { version: 0, id: 'parent-3', createdAt: 1 }
    const forked = reference.fork({ header, events, childId: 'child-7', now: 1786123500000 })
    expect(forked).toEqual({
      ok: true,
      value: {
        header: { version: 0, id: 'child-7', createdAt: 1786123500000, parentSession: 'parent-3', seedLength: 4 },
        events: [...events, { type: 'session/end-seed', seq: 4, time: 1786123500000, data: {} }],
      },
    })
    expect(reference.fork({ header, events, boundary: 1, childId: 'c', now: 1 })).toMatchObject({ ok: false, error: { code: 'FORK_OPEN_TURN', seq: 0 } })
    expect(codeOf(reference.fork({ header, events, boundary: 1.5, childId: 'c', now: 1 }))).toBe('FORK_INVALID_BOUNDARY')
    expect(reference.fork({ events: [], childId: 'c', now: 9 })).toMatchObject({ ok: true, value: { header: { seedLength: 0 }, events: [{ seq: 0, type: 'session/end-seed' }] } })
  })
})

describe('header equality (HDR-5)', () => {
  const config = { provider: 'p', model: 'm' }
  it('compares canonical headers', () => {
    expect(reference.headerEquals({ left: { config, tools: [], system: '' }, right: { config } })).toEqual({ ok: true, value: true })
    expect(reference.headerEquals({ left: { config: { ...config, stop: [] } }, right: { config } })).toEqual({ ok: true, value: false })
    const tool = { name: 't', description: 'd', parameters: {} }
    const reordered = { description: 'd', name: 't', parameters: {} }
    expect(reference.headerEquals({ left: { config, tools: [tool] }, right: { config, tools: [reordered] } })).toEqual({ ok: true, value: false })
  })
})
