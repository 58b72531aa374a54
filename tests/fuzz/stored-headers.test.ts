// The requestHeader probes the fuzzer makes over logs whose request/header snapshots hold a `system`
// or `tools` outside HDR-1 (conformance/fuzz/stored-headers.ts): one plan in four, every snapshot
// edited alike, each of the four edits drawn; HDR-3 drops such a member from the header in force.
import { describe, expect, it } from 'vitest'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { withStoredHeadersOutsideHdr1 } from '../../conformance/fuzz/stored-headers.ts'
import { event, turnStart } from '../reference/helpers.ts'

const CONFIG = { provider: 'p', model: 'm' }
const TOOL = { name: 't', description: 'A tool.', parameters: { type: 'object', properties: {} } }
const LOG = [
  turnStart(0, 1),
  event('request/header', 1, { header: { config: CONFIG, system: 'first', tools: [TOOL] }, reason: 'initial' }),
  event('request/header', 2, { header: { config: CONFIG, system: 'second', tools: [TOOL] }, reason: 'changed' }),
]

describe('stored request headers outside HDR-1', () => {
  it('are drawn for about one plan in four, with each edit, and dropped by the reference from the header in force', async () => {
    const edits = new Set<string>()
    let edited = 0
    for (let seed = 1; seed <= 400; seed += 1) {
      const events = withStoredHeadersOutsideHdr1(LOG, seed)
      if (events === undefined) continue
      edited += 1
      const [first, second] = events.slice(1).map(item => (item as { data: { header: Record<string, unknown> } }).data.header)
      const member = first!['system'] === 'first' ? 'tools' : 'system'
      expect(JSON.stringify(second![member])).toBe(JSON.stringify(first![member]))
      edits.add(`${member} ${JSON.stringify(first![member])}`)
      // By hand: the second header is in force; the edited member is dropped (HDR-3), the other kept.
      const kept = member === 'system' ? { tools: [TOOL] } : { system: 'second' }
      expect(await referenceAdapter.operations.requestHeader!({ events }, { caseId: 'headers', step: 0 })).toEqual({ ok: true, value: { config: CONFIG, ...kept } })
    }
    expect(edited).toBeGreaterThan(60)
    expect(edited).toBeLessThan(140)
    expect([...edits].sort()).toEqual(['system ["x"]', 'system null', 'tools "abc"', 'tools null'])
  })

  it('leave a log as it is when no header is in force where the probe reads', () => {
    const editing = Array.from({ length: 80 }, (_, index) => index + 1).filter(seed => withStoredHeadersOutsideHdr1(LOG, seed) !== undefined)
    expect(editing.length).toBeGreaterThan(10)
    for (const seed of editing) {
      expect(withStoredHeadersOutsideHdr1([turnStart(0, 1)], seed)).toBeUndefined()
      expect(withStoredHeadersOutsideHdr1(LOG, seed, 0)).toBeUndefined()
      expect(withStoredHeadersOutsideHdr1(LOG, seed, 1)).toBeDefined()
    }
  })
})
