// The requestHeader probes the fuzzer makes over logs whose request/header snapshots hold a `system`
// or `tools` outside HDR-1, or members at its edges (conformance/fuzz/stored-headers.ts): one plan in
// four, every snapshot edited alike, each of the six edits drawn; HDR-3 drops the first four from the
// header in force and keeps the last two exactly as stored.
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
  it('are drawn for about one plan in four, with each edit, and dropped or kept by the reference as HDR-3 says', async () => {
    const edits = new Set<string>()
    let edited = 0
    for (let seed = 1; seed <= 400; seed += 1) {
      const events = withStoredHeadersOutsideHdr1(LOG, seed)
      if (events === undefined) continue
      edited += 1
      const [first, second] = events.slice(1).map(item => (item as { data: { header: Record<string, unknown> } }).data.header)
      const member = first!['system'] !== 'first' ? 'system' : JSON.stringify(first!['tools']) !== JSON.stringify([TOOL]) ? 'tools' : 'config'
      expect(JSON.stringify(second![member])).toBe(JSON.stringify(first![member]))
      edits.add(`${member} ${JSON.stringify(first![member])}`)
      // By hand: the second header is in force. A system or tools HDR-3 drops is gone, the other kept;
      // a tool list that is an array of at least one element, and any config, are kept as stored.
      const keptAsStored = member === 'config' || (member === 'tools' && Array.isArray(second!['tools']))
      const rest = member === 'system' ? { tools: [TOOL] } : member === 'tools' ? { system: 'second' } : { system: 'second', tools: [TOOL] }
      const expected = keptAsStored ? { config: CONFIG, ...rest, [member]: second![member] } : { config: CONFIG, ...rest }
      expect(await referenceAdapter.operations.requestHeader!({ events }, { caseId: 'headers', step: 0 })).toEqual({ ok: true, value: expected })
    }
    expect(edited).toBeGreaterThan(60)
    expect(edited).toBeLessThan(140)
    expect([...edits].sort()).toEqual([
      'config {"provider":"p","model":"m","temperature":0,"maxTokens":null,"stream":false}',
      'system ["x"]', 'system null',
      'tools "abc"',
      'tools [{"name":"write","description":"Write a file.","parameters":{},"strict":true},{"name":"read","description":"Read a file.","parameters":{}},'
        + '{"name":"read","description":"Read a file.","parameters":{}},{"name":"read","description":"Read a file again.","parameters":{}},null]',
      'tools null',
    ])
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
