// The vitest entry point (package export "./vitest"), used as a fork would use it: the reference
// adapter and a small filter register one test per case, grouped by chapter, and they all pass (one
// is listed in a baseline: without strictBaseline a NEW PASS still passes). A fake subprocess adapter
// shows the other outcomes staying green only as skips: a case whose profile it does not claim, and
// a fail its baseline lists. A fork's vitest of its own (tests/vitest-fixtures/) shows the suite staying
// sequential under sequence.concurrent, and a listed case that errs failing. A fork's own folder of
// vectors takes the suite's place.
import { registerConformanceSuite } from 'dsh-session-conformance/vitest'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { describe, expect, it, vi } from 'vitest'
import type { Baseline } from '../conformance/baseline.ts'
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

// Its one case is in no folder of the suite: were the suite loaded instead, no case would match.
registerConformanceSuite({
  name: 'a fork\'s own vectors',
  adapter: 'reference',
  vectors: join(projectRoot, 'tests/vitest-fixtures/own-vectors'),
  filters: { cases: ['own-*'] },
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

  it('refuse a baseline given as content for what a file would be refused for', () => {
    const unexplained = { adapter: 'reference', failures: [{ id: 'surf-order-chain-fold' }] } as unknown as Baseline
    expect(() => registerConformanceSuite({ adapter: 'reference', baseline: unexplained })).toThrow(/the baseline option: not a baseline: failures\[0\] \(surf-order-chain-fold\) needs a reason/)
    const twice = { adapter: 'reference', failures: [{ id: 'a', reason: 'r' }, { id: 'a', reason: 's' }] }
    expect(() => registerConformanceSuite({ adapter: 'reference', baseline: twice })).toThrow(/a is listed twice/)
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

describe('a fork\'s own vitest (tests/vitest-fixtures/)', () => {
  interface JsonReport { testResults: { assertionResults: { title: string; status: string; failureMessages: string[] }[] }[] }

  it('runs the cases one after another under sequence.concurrent, and fails a listed case that errs', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'vitest-fork-'))
    const output = join(folder, 'report.json')
    try {
      await promisify(execFile)('node', ['node_modules/vitest/vitest.mjs', 'run', '--config', 'tests/vitest-fixtures/vitest.config.ts', '--reporter=json', `--outputFile=${output}`], { cwd: projectRoot }).catch(() => undefined)
      const results = (JSON.parse(readFileSync(output, 'utf8')) as JsonReport).testResults.flatMap((file) => file.assertionResults)
      const [overWire, hanging] = [results.slice(0, 5), results.slice(5)]
      expect(overWire.map((result) => result.status)).toEqual(['passed', 'passed', 'passed', 'passed', 'passed'])
      expect(hanging[0]?.status).toBe('failed')
      expect(hanging[0]?.failureMessages[0]).toContain('ERROR surf-order-append-only-surface [SURF-3] (the baseline lists this case, but no baseline excuses an error): timeout')
    } finally {
      rmSync(folder, { recursive: true, force: true })
    }
  }, 60_000)
})
