// The vitest entry point (package export "./vitest"), used as a fork would use it: the reference
// adapter and a small filter register one test per case, grouped by chapter, and they all pass (one
// is listed in a baseline: without strictBaseline a NEW PASS still passes). A fake subprocess adapter
// shows the other outcomes staying green only as skips: a case whose profile it does not claim, and
// a failure its baseline lists.
import { registerConformanceSuite } from 'dsh-session-conformance/vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { projectRoot } from '../conformance/vector-cases.ts'

registerConformanceSuite({
  name: 'reference through dsh-session-conformance/vitest',
  adapter: 'reference',
  filters: { chapters: ['05'], cases: ['surf-order-chain-*'] },
  baseline: { adapter: 'reference', failures: [{ id: 'surf-order-chain-fold', reason: 'listed only to show a NEW PASS is not a failure by default' }] },
})

registerConformanceSuite({
  name: 'a fake adapter with a baseline',
  adapterCmd: 'node tests/fakes/fake-adapter.mjs misorder',
  filters: { cases: ['surf-order-append-only-surface', 'surf-order-chain-fold', 'surf-order-chain-numeric-reversed-writer'] },
  baseline: { adapter: 'fake-misorder', failures: [{ id: 'surf-order-chain-fold', reason: 'SURF-6: the fake puts a replacement at the tail' }] },
})

describe('the package exports', () => {
  it('name the vitest entry and the programmatic API', () => {
    const packageJson = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { exports: Record<string, string> }
    expect(packageJson.exports['./vitest']).toBe('./conformance/vitest.ts')
    expect(packageJson.exports['.']).toBe('./conformance/index.ts')
  })

  it('refuse a suite with no adapter or two', () => {
    expect(() => registerConformanceSuite({})).toThrow(/exactly one of adapter and adapterCmd/)
    expect(() => registerConformanceSuite({ adapter: 'reference', adapterCmd: 'x' })).toThrow(/exactly one/)
  })

  it('refuse a filter it does not know, rather than run every case', () => {
    const filters = { chapter: ['05'] } as unknown as Record<string, string[]>
    expect(() => registerConformanceSuite({ adapter: 'reference', filters })).toThrow(/unknown filter chapter; the filters are chapters, requirements, profiles, cases/)
  })
})
