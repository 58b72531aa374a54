// The vitest entry point (package export "./vitest"), used as a fork would use it: the reference
// adapter and a small filter register one test per case, grouped by chapter, and they all pass (one
// is listed in a baseline: without strictBaseline a NEW PASS still passes). A fake subprocess adapter
// shows the other outcomes staying green only as skips: a case whose profile it does not claim, and
// a failure its baseline lists.
import { registerConformanceSuite } from 'dsh-session-conformance/vitest'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { filtersFromLists, noFilters } from '../conformance/filters.ts'
import { projectRoot } from '../conformance/vector-cases.ts'

// What the suites below warn about; the last describe block reads it after they ran.
const warnings: string[] = []
vi.spyOn(console, 'warn').mockImplementation((...parts: unknown[]) => {
  warnings.push(parts.join(' '))
})

registerConformanceSuite({
  name: 'reference through dsh-session-conformance/vitest',
  adapter: 'reference',
  filters: { chapters: ['05'], cases: ['surf-order-chain-*'] },
  baseline: {
    adapter: 'reference',
    failures: [
      { id: 'surf-order-chain-fold', reason: 'listed only to show a NEW PASS is not a failure by default' },
      { id: 'surf-order-chain-fold-typo', reason: 'an id the suite does not have' },
    ],
  },
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

  it('take filter values as the command line does: checked, requirements in any case', () => {
    expect(() => registerConformanceSuite({ adapter: 'reference', filters: { profiles: ['reader', 'writr'] } })).toThrow(/unknown profile writr/)
    expect(() => registerConformanceSuite({ adapter: 'reference', filters: { chapters: '05' as unknown as string[] } })).toThrow(/the chapters filter must be an array of strings/)
    expect(() => registerConformanceSuite({ adapter: 'reference', filters: { chapters: ['surface'] } })).toThrow(/no case matches the filters --chapter surface/)
    expect(filtersFromLists({ requirements: ['surf-5'], cases: ['surf-*'] })).toEqual({ ...noFilters(), requirements: ['SURF-5'], cases: ['surf-*'] })
  })
})

describe('warnings of the suites above, which ran first', () => {
  it('name a NEW PASS without failing it, and a listed id the suite does not have', () => {
    expect(warnings).toContain('NEW PASS: surf-order-chain-fold passes but the baseline lists it (listed only to show a NEW PASS is not a failure by default); remove it from the baseline')
    expect(warnings).toContain('dsh-conformance: note: the baseline lists 1 case id this suite does not have (a typo, or a case that left the suite): surf-order-chain-fold-typo')
  })
})
