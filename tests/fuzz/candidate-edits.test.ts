// The append probe's candidate edits (conformance/fuzz/candidate-edits.ts): one plan in four, an edit
// and one of the log's events it applies to, or the time 0 on the plan's event, and what the reference
// answers for each as the spec says, checked by hand on a small log.
import { describe, expect, it } from 'vitest'
import { buildLog } from '../../conformance/builder.ts'
import { withCandidateEdit } from '../../conformance/fuzz/candidate-edits.ts'
import { reference } from '../../reference/index.ts'

const built = buildLog([{ 'turn/start': 1 }, { 'step/start': [1, 1] }, { user: 'go' }, { assistant: [1, 1], calls: ['c1'] }])
const LOG = 'events' in built ? built.events : []
type EventRecord = Record<string, unknown>

/** One candidate of each type an edit applies to, appended onto LOG. */
const CANDIDATES: EventRecord[] = [
  { type: 'assistant/message', data: { turn: 1, step: 1, message: { id: 'a9', role: 'assistant', content: [{ type: 'text', text: 'done' }], source: { kind: 'model', provider: 'p', model: 'm' } } }, surfaceOp: 'append' },
  { type: 'tool/result', data: { turn: 1, step: 1, message: { id: 'r9', role: 'user', content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'ok' }] }], source: { kind: 'tool', callId: 'c1' } } }, surfaceOp: 'append' },
  { type: 'tool/call', data: { turn: 1, step: 1, callId: 'c1', name: 'tool', arguments: '{}' } },
  { type: 'step/end', data: { turn: 1, step: 1 } },
  { type: 'turn/end', data: { turn: 1, reason: { kind: 'completed' } } },
  { type: 'request/header', data: { header: { config: { provider: 'p', model: 'm' } }, reason: 'initial' } },
  { type: 'turn/start', data: { turn: 2 } },
  { type: 'request/context', data: { provider: 'p', model: 'm' } },
  { type: 'session/end-seed', data: {} },
]

/** What the reference answers for the candidate at `time` onto `events`: accepted, or the code of its rejection. */
function answer(events: unknown[], candidate: EventRecord, time: number): string {
  const result = reference.append({ events, candidate, time })
  return result.ok ? `accepted at ${(result.value as { time: number }).time}` : result.error.code
}

/** LOG followed by the candidate as its event, at the next seq. */
const logEndingIn = (candidate: EventRecord): unknown[] => [...LOG, { ...candidate, seq: LOG.length, time: 5000 }]

// By hand, from the changed member: PROC-4 takes time 0 as given; VOC-11 wants a provider and a
// non-empty model, VOC-12 a block content that is a list, VOC-13 a toolCallId; TURN-1 a non-empty callId
// and a step that is a safe integer (no boolean); TURN-2 a turn that is a safe integer, and for
// `interrupted` no member but kind, while any string, and only a string, is a kind; HDR-2 an
// adapterDefaults that is an object, whose flag is the literal true and needs the config member with
// any value, and nothing of system; LEGACY-5 a trigger that is an object; LEGACY-2 takes reason
// "fallback" only on request/header; VOC-12 a content that is an array, empty or not; VOC-10 the role
// "user" for a tool result, checked before its content; SURF-1 no surfaceOp on a log-only event (the
// end-seed). None of these answers depends on the events
// before the candidate, so the same holds for an edit of one of LOG's own events (its turn/start, step/start
// or assistant message) onto those before it.
function expected(edited: EventRecord, time: number): string {
  if (time === 0) return 'accepted at 0'
  const data = edited['data'] as EventRecord
  const message = data['message'] as EventRecord | undefined
  const header = data['header'] as EventRecord | undefined
  switch (edited['type']) {
    case 'assistant/message': return 'MESSAGE_SOURCE_INVALID'
    case 'tool/result':
      if (message!['role'] === 'tool') return 'MESSAGE_ROLE_INVALID'
      return Array.isArray(((message!['content'] as EventRecord[])[0]!)['content']) ? 'MESSAGE_CALL_ID_MISMATCH' : 'MESSAGE_CONTENT_INVALID'
    case 'tool/call':
    case 'step/start':
    case 'step/end': return 'PAYLOAD_INVALID'
    case 'turn/end': {
      const kind = (data['reason'] as EventRecord)['kind']
      return data['turn'] === true || kind === 'interrupted' || typeof kind !== 'string' ? 'TURN_END_MALFORMED' : `accepted at ${time}`
    }
    case 'request/header': {
      const flags = header!['adapterDefaults'] as EventRecord | null | undefined
      return flags === null || flags?.['maxTokens'] === 1 ? 'REQUEST_HEADER_INVALID' : `accepted at ${time}`
    }
    case 'session/end-seed': return 'SURFACE_OP_NOT_ALLOWED'
    case 'turn/start': return 'LEGACY_SHAPE_MALFORMED'
    default: return `accepted at ${time}`
  }
}

describe('candidate edits', () => {
  it('are drawn for about one plan in four, each edit and the time 0, and answered as the spec says', () => {
    const seen = new Set<string>()
    let [edited, ofLog] = [0, 0]
    for (const original of CANDIDATES) {
      const events = logEndingIn(original)
      for (let seed = 1; seed <= 600; seed += 1) {
        const edit = withCandidateEdit(events, LOG.length, seed)
        if (edit === undefined) continue
        edited += 1
        if (edit.index < LOG.length) ofLog += 1
        const want = expected(edit.candidate, edit.time)
        if (edit.time === 0) expect(edit).toEqual({ index: LOG.length, candidate: original, time: 0 })
        seen.add(`${String(edit.candidate['type'])}: ${want}`)
        expect(answer(events.slice(0, edit.index), edit.candidate, edit.time), `${original['type']} ${JSON.stringify(edit.candidate)}`).toBe(want)
      }
    }
    expect(edited).toBeGreaterThan(CANDIDATES.length * 100)
    expect(edited).toBeLessThan(CANDIDATES.length * 200)
    // Some edits take one of LOG's own events (its turn/start, step/start or assistant message).
    expect(ofLog).toBeGreaterThan(CANDIDATES.length * 10)
    // Each type at time 0, the thirteen answers its edits give (three for a result, two for a turn/end
    // and a header), LOG's step/start with its step out of range and LOG's user message with empty
    // content (its turn/start and assistant answer as those types do).
    expect(seen.size).toBe(CANDIDATES.length + 15)
  })

  it('take a tool/call or a request header whatever event the plan would append, when the log holds one', () => {
    const events = [...logEndingIn(CANDIDATES[2]!), { ...CANDIDATES[5]!, seq: LOG.length + 1, time: 5001 }]
    const types = new Set<unknown>()
    for (let seed = 1; seed <= 600; seed += 1) {
      const edit = withCandidateEdit(events, 0, seed)
      if (edit !== undefined && edit.time !== 0) types.add(edit.candidate['type'])
    }
    expect([...types].sort()).toEqual(['assistant/message', 'request/header', 'step/start', 'tool/call', 'turn/start', 'user/message'])
  })
})
