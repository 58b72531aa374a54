// The load probe's two-fault edits (conformance/fuzz/surface-check-order.ts): one plan in four, each of
// the five edits drawn, and load's rejection of each edited log as SURF-9's order says, checked by hand
// on a small log.
import { describe, expect, it } from 'vitest'
import { buildLog } from '../../conformance/builder.ts'
import { withSurfaceFaultPair } from '../../conformance/fuzz/surface-check-order.ts'
import { reference } from '../../reference/index.ts'

// Log-only events at 0, 1, 4, 6 and 7; the nodes 2, 3 and 5, each appended.
const built = buildLog([
  { 'turn/start': 1 }, { 'step/start': [1, 1] }, { user: 'go' }, { assistant: [1, 1], calls: ['c1'] }, { call: [1, 1, 'c1'] },
  { result: [1, 1, 'c1'] }, { 'step/end': [1, 1] }, { 'turn/end': [1, 'completed'] },
])
const LOG = 'events' in built ? built.events : []
const LOG_ONLY = new Set([0, 1, 4, 6, 7])

type EventRecord = Record<string, unknown>

/** Which edit made `events` from LOG, told from the event it changed, and that event's index. */
function editOf(events: unknown[]): [string, number] {
  const changed = events.findIndex((event, index) => JSON.stringify(event) !== JSON.stringify(LOG[index]))
  const event = events[changed] as EventRecord
  if (LOG_ONLY.has(changed)) return ['marker on a log-only event', changed]
  if (!('surfaceOp' in event)) return ['no surfaceOp, malformed sources', changed]
  const sources = event['sourceEventSeqs']
  if (Array.isArray(sources) && sources.length === 1 && sources[0] >= changed) return ['late citation, incomplete', changed]
  const start = (event['surfaceOp'] as { start: number }).start
  return [LOG_ONLY.has(start) ? 'neither endpoint a node' : 'end no node, no sources', changed]
}

// By hand (SURF-9): a log-only event with either marker fails eligibility whatever the marker's value
// (SURF-1), before SURF-2 or chapter 06 would look at it; a surface event without surfaceOp fails
// eligibility too, whatever its sourceEventSeqs. A replace from a log-only seq to the event's own seq
// names two non-nodes, and start is looked up first (SURF-4); a replace from a node to the event's own
// seq fails on its end before the empty citation list is looked at (step 5.2 before 5.4). A replace of
// earlier nodes citing only its own seq or the next has sound endpoints, and PROV-8 looks at lateness
// (its step 5) before what the replace shadows (step 6). The nodes before 3 are [2], before 5 [2, 3];
// the log-only seqs before 2 and 3 are 0 and 1, before 5 also 4.
const REJECTIONS: Record<string, Record<number, string>> = {
  'marker on a log-only event': Object.fromEntries([...LOG_ONLY].map(index => [index, 'SURFACE_OP_NOT_ALLOWED'])),
  'no surfaceOp, malformed sources': { 2: 'SURFACE_OP_MISSING', 3: 'SURFACE_OP_MISSING', 5: 'SURFACE_OP_MISSING' },
  'neither endpoint a node': { 2: 'SURFACE_REPLACE_START_NOT_FOUND', 3: 'SURFACE_REPLACE_START_NOT_FOUND', 5: 'SURFACE_REPLACE_START_NOT_FOUND' },
  'end no node, no sources': { 3: 'SURFACE_REPLACE_END_NOT_FOUND', 5: 'SURFACE_REPLACE_END_NOT_FOUND' },
  'late citation, incomplete': { 3: 'PROVENANCE_NOT_EARLIER', 5: 'PROVENANCE_NOT_EARLIER' },
}

describe('surface fault pairs', () => {
  it('are drawn for about one plan in four, each edit, and load rejects each at its event as SURF-9 orders', () => {
    expect(reference.load({ events: LOG }).ok).toBe(true)
    const edits = new Set<string>()
    let edited = 0
    for (let seed = 1; seed <= 800; seed += 1) {
      const events = withSurfaceFaultPair(LOG, seed)
      if (events === undefined) continue
      edited += 1
      const [edit, at] = editOf(events)
      edits.add(edit)
      const result = reference.load({ events })
      const found = result.ok ? 'accepted' : `${result.error.code}@${result.error.seq}`
      expect(found, `${edit} at ${at}`).toBe(`${REJECTIONS[edit]![at]}@${at}`)
    }
    expect(edited).toBeGreaterThan(150)
    expect(edited).toBeLessThan(260)
    expect([...edits].sort()).toEqual(['end no node, no sources', 'late citation, incomplete', 'marker on a log-only event', 'neither endpoint a node', 'no surfaceOp, malformed sources'])
  })

  it('make of a log of one appended user message only what applies to it: its surfaceOp removed', () => {
    const userOnly = buildLog([{ user: 'a' }])
    const events = 'events' in userOnly ? userOnly.events : []
    let edited = 0
    for (let seed = 1; seed <= 200; seed += 1) {
      const edit = withSurfaceFaultPair(events, seed)
      if (edit === undefined) continue
      edited += 1
      const event = edit[0] as EventRecord
      expect('surfaceOp' in event).toBe(false)
      expect(reference.load({ events: edit })).toMatchObject({ ok: false, error: { code: 'SURFACE_OP_MISSING', seq: 0 } })
    }
    expect(edited).toBeGreaterThan(5)
  })
})
