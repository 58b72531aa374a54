// The messages probes the fuzzer makes over valid logs edited where the derived history must not notice
// (conformance/fuzz/message-edits.ts): one plan in four, half of them citing one more message event in
// every replacing user/message, half giving every user/message a member holding null.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { withMessageEdgeEdits } from '../../conformance/fuzz/message-edits.ts'
import { replace, user } from '../reference/helpers.ts'

// Seq 3 replaces seq 1 alone; the surface is 0, 3, 2.
const LOG = [user(0), user(1), user(2), user(3, replace(1, 1, [1]))]
const context = { caseId: 'messages', step: 0 }

describe('message edits', () => {
  it('are drawn for about one plan in four, each kind, and leave the reference\'s messages as DER-1 and DER-3 say', async () => {
    const plain = await referenceAdapter.operations.messages!({ events: LOG }, context)
    const kinds = new Set<string>()
    let edited = 0
    for (let seed = 1; seed <= 400; seed += 1) {
      const events = withMessageEdgeEdits(LOG, seed) as Record<string, unknown>[] | undefined
      if (events === undefined) continue
      edited += 1
      const messages = await referenceAdapter.operations.messages!({ events }, context)
      if (JSON.stringify(events[3]!['sourceEventSeqs']) === '[1,0]') {
        kinds.add('cites more')
        // By hand: citing the current node 0 shadows nothing (PROV-7), so the messages are as before.
        expect(messages).toEqual(plain)
      } else {
        kinds.add('null member')
        // By hand: each projected message is its data, the null member with it (DER-3).
        expect(messages).toEqual({ ok: true, value: [0, 3, 2].map(seq => ({ ...user(seq).data as object, meta: null })) })
      }
    }
    expect(edited).toBeGreaterThan(60)
    expect(edited).toBeLessThan(140)
    expect([...kinds].sort()).toEqual(['cites more', 'null member'])
  })

  it('leave a log without a replacing user/message, or without any, as it is when that is all the draw could edit', () => {
    const appendsOnly = [user(0), user(1)]
    let nullMembers = 0
    for (let seed = 1; seed <= 80; seed += 1) {
      expect(withMessageEdgeEdits([], seed)).toBeUndefined()
      const events = withMessageEdgeEdits(appendsOnly, seed) as Record<string, unknown>[] | undefined
      if (events === undefined) continue
      nullMembers += 1
      expect(events.every(event => (event['data'] as Record<string, unknown>)['meta'] === null && !('sourceEventSeqs' in event))).toBe(true)
    }
    expect(nullMembers).toBeGreaterThan(3)
  })
})
