// The append probe's candidate edits (conformance/fuzz/candidate-edits.ts): one plan in four, an edit
// that applies to the candidate's type or the time 0, and what the reference answers for each as the
// spec says, checked by hand on a small log.
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
]

/** What the reference answers for the candidate at `time`: accepted, or the code of its rejection. */
function answer(candidate: EventRecord, time: number): string {
  const result = reference.append({ events: LOG, candidate, time })
  return result.ok ? `accepted at ${(result.value as { time: number }).time}` : result.error.code
}

// By hand, from the changed member: PROC-4 takes time 0 as given; VOC-11 wants a provider and a
// non-empty model, VOC-12 a block content that is a list, VOC-13 a toolCallId; TURN-1 a non-empty callId
// and a step that is a safe integer (no boolean); TURN-2 a turn that is a safe integer, and for
// `interrupted` no member but kind, while any string is a kind; HDR-2 an adapterDefaults that is an
// object, whose flag needs the config member with any value; LEGACY-5 a trigger that is an object;
// LEGACY-2 takes reason "fallback" only on request/header.
function expected(original: EventRecord, edited: EventRecord, time: number): string {
  if (edited === original) return time === 0 ? 'accepted at 0' : 'unchanged'
  const data = edited['data'] as EventRecord
  const message = data['message'] as EventRecord | undefined
  const header = data['header'] as EventRecord | undefined
  switch (edited['type']) {
    case 'assistant/message': return 'MESSAGE_SOURCE_INVALID'
    case 'tool/result': return Array.isArray(((message!['content'] as EventRecord[])[0]!)['content']) ? 'MESSAGE_CALL_ID_MISMATCH' : 'MESSAGE_CONTENT_INVALID'
    case 'tool/call':
    case 'step/end': return 'PAYLOAD_INVALID'
    case 'turn/end': return data['turn'] === true || (data['reason'] as EventRecord)['kind'] === 'interrupted' ? 'TURN_END_MALFORMED' : `accepted at ${time}`
    case 'request/header': return header!['adapterDefaults'] === null ? 'REQUEST_HEADER_INVALID' : `accepted at ${time}`
    case 'turn/start': return 'LEGACY_SHAPE_MALFORMED'
    default: return `accepted at ${time}`
  }
}

describe('candidate edits', () => {
  it('are drawn for about one plan in four, each edit and the time 0, and answered as the spec says', () => {
    const seen = new Set<string>()
    let edited = 0
    for (const original of CANDIDATES) {
      for (let seed = 1; seed <= 200; seed += 1) {
        const edit = withCandidateEdit(original, 5000, seed)
        if (edit === undefined) continue
        edited += 1
        const want = expected(original, edit.candidate, edit.time)
        seen.add(`${original['type']}: ${want}`)
        expect(answer(edit.candidate, edit.time), `${original['type']} ${JSON.stringify(edit.candidate)}`).toBe(want)
      }
    }
    expect(edited).toBeGreaterThan(CANDIDATES.length * 30)
    expect(edited).toBeLessThan(CANDIDATES.length * 70)
    // Each type at time 0, and the eleven answers its edits give (two for a result, a turn/end and a header).
    expect(seen.size).toBe(CANDIDATES.length + 11)
  })
})
