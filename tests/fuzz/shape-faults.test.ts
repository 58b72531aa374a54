// The load probe's shape faults (conformance/fuzz/shape-faults.ts): one plan in eight, one event of a
// valid log given a fault only load's early phases find, and load's answer to each edited log, checked
// by hand on a small log.
import { describe, expect, it } from 'vitest'
import { buildLog } from '../../conformance/builder.ts'
import { withShapeFault } from '../../conformance/fuzz/shape-faults.ts'
import { reference } from '../../reference/index.ts'

const eventsOf = (built: ReturnType<typeof buildLog>): unknown[] => ('events' in built ? built.events : [])

// turn/start at 0, user/message at 2, request/header at 3, assistant/message at 4: one of each type the edit changes.
const LOG = eventsOf(buildLog([
  { 'turn/start': 1 }, { 'step/start': [1, 1] }, { user: 'go' }, { header: {} }, { assistant: [1, 1], text: 'done' },
  { 'step/end': [1, 1] }, { 'turn/end': [1, 'completed'] },
]))

type EventRecord = Record<string, unknown>

/** What chapter 18 and VOC-9 to VOC-12 say load answers, by hand, for the one event the edit changed. */
function expected(event: EventRecord): string {
  const data = event['data'] as EventRecord
  if (event['type'] === 'turn/start') return 'LEGACY_SHAPE_MALFORMED' // LEGACY-5: a trigger that is no object with a non-empty string kind
  if (event['type'] === 'request/header') return 'LEGACY_FALLBACK_REASON' // LEGACY-2
  if (event['type'] === 'assistant/message') return 'MESSAGE_SOURCE_INVALID' // VOC-11: an assistant source needs its provider
  return data['id'] === '' ? 'MESSAGE_ID_INVALID' : 'MESSAGE_CONTENT_INVALID' // VOC-9, VOC-12
}

describe('shape faults on load', () => {
  it('are drawn for about one plan in eight, one event each, and load rejects that event as chapter 18 and VOC-9 to VOC-12 say', () => {
    expect(reference.load({ events: LOG }).ok).toBe(true)
    const seen = new Set<string>()
    let edited = 0
    for (let seed = 1; seed <= 1600; seed += 1) {
      const events = withShapeFault(LOG, seed)
      if (events === undefined) continue
      edited += 1
      const changed = events.flatMap((event, index) => (JSON.stringify(event) === JSON.stringify(LOG[index]) ? [] : [index]))
      expect(changed.length).toBe(1)
      const at = changed[0]!
      const event = events[at] as EventRecord
      const result = reference.load({ events })
      expect(result.ok ? 'accepted' : `${result.error.code}@${result.error.seq}`).toBe(`${expected(event)}@${at}`)
      seen.add(`${expected(event)} ${JSON.stringify((event['data'] as EventRecord)['trigger'] ?? '')}`)
    }
    expect(edited).toBeGreaterThan(140)
    expect(edited).toBeLessThan(260)
    // Three triggers, and the four other faults.
    expect(seen.size).toBe(7)
  })

  it('leave a log without the types they change as it is', () => {
    const plain = eventsOf(buildLog([{ 'step/start': [1, 1] }, { 'step/end': [1, 1] }]))
    for (let seed = 1; seed <= 200; seed += 1) expect(withShapeFault(plain, seed)).toBeUndefined()
  })
})
