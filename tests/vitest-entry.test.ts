// The vitest entry point (package export "./vitest"), used as a fork would use it: the reference
// adapter and a small filter register one test per case, grouped by chapter, and they all pass (one
// is listed in a baseline: without strictBaseline a NEW PASS still passes). A fork's vitest of its own
// (tests/vitest-fixtures/), whose outcomes a reporter of its own writes down, shows the suite staying
// sequential under sequence.concurrent, and the outcomes that are never passes: a case whose profile
// the adapter does not claim and a fail its baseline lists are skips that say why; a listed case that
// errs fails, and so does one that passes under strictBaseline; a suite whose every case was skipped
// fails its last test. A fork's own folder of vectors takes the suite's place.
import { registerConformanceSuite } from 'dsh-session-conformance/vitest'
import { execFile } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it, vi } from 'vitest'
import type { Baseline } from '../conformance/baseline.ts'
import { filtersFromLists, noFilters } from '../conformance/filters.ts'
import { projectRoot } from '../conformance/vector-cases.ts'
import type { TestOutcome } from './vitest-fixtures/outcomes-reporter.ts'

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

// Its one case is in no folder of the suite: were the suite loaded instead, no case would match.
registerConformanceSuite({
  name: 'a fork\'s own vectors',
  adapter: 'reference',
  vectors: join(projectRoot, 'tests/vitest-fixtures/own-vectors'),
  filters: { cases: ['own-*'] },
})

// An adapter whose surface cannot handle any input: its fails, listed in the baseline, skip as known,
// and the warning of the command line's summary follows the suite.
registerConformanceSuite({
  name: 'an adapter that cannot handle its inputs',
  adapter: { meta: { name: 'lacking', version: '0', language: 'typescript', profiles: ['reader'] }, operations: { surface: () => ({ ok: false, unsupported: 'no surface fold yet' }) } },
  filters: { cases: ['surf-order-chain-fold', 'surf-order-chain-shadowed-in-surface-order'] },
  baseline: {
    adapter: 'lacking',
    failures: [
      { id: 'surf-order-chain-fold', reason: 'no surface fold yet' },
      { id: 'surf-order-chain-shadowed-in-surface-order', reason: 'no surface fold yet' },
    ],
  },
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

  it('refuse an option it does not take, a misspelt one naming the one meant, rather than drop it unread', () => {
    const misspelt = { adapter: 'reference', strictbaseline: true } as unknown as Parameters<typeof registerConformanceSuite>[0]
    expect(() => registerConformanceSuite(misspelt)).toThrow('registerConformanceSuite takes no option strictbaseline; did you mean strictBaseline? (its options: adapter, adapterCmd, cwd, timeoutMs, baseline, strictBaseline, filters, vectors, name)')
    const unknown = { adapter: 'reference', verbose: true } as unknown as Parameters<typeof registerConformanceSuite>[0]
    expect(() => registerConformanceSuite(unknown)).toThrow(/^registerConformanceSuite takes no option verbose \(its options: /)
  })

  it('refuse a filter it does not know, rather than run every case', () => {
    const filters = { chapter: ['05'] } as unknown as Record<string, string[]>
    expect(() => registerConformanceSuite({ adapter: 'reference', filters })).toThrow(/unknown filter chapter; the filters are chapters, requirements, profiles, operations, cases/)
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
    expect(() => registerConformanceSuite({ adapter: 'reference', filters: { chapters: ['surface'] } })).toThrow(/--chapter surface matches no case \(chapters: 00-processing, /)
    expect(filtersFromLists({ requirements: ['surf-5'], cases: ['surf-*'] })).toEqual({ ...noFilters(), requirements: ['SURF-5'], cases: ['surf-*'] })
  })
})

describe('warnings of the suites above, which ran first', () => {
  it('name a NEW PASS without failing it, and a listed id the suite does not have', () => {
    expect(warnings).toContain('NEW PASS: surf-order-chain-fold passes but the baseline lists it (listed only to show a NEW PASS is not a failure by default); remove it from the baseline')
    expect(warnings).toContain('dsh-conformance: note: the baseline lists 1 case id this suite does not have (a typo, or a case that left the suite): surf-order-chain-fold-typo (did you mean surf-order-chain-fold?)')
  })

  it('say, after a suite, what the command line\'s summary would warn of', () => {
    expect(warnings).toContain('dsh-conformance: warning: 2 cases fail where the implementation answered that it cannot handle the input (unsupported): surface (2); no claim of their profiles holds while they fail')
    // The reference's suite backs its claims: no warning names it.
    expect(warnings.filter(text => text.startsWith('dsh-conformance: warning:'))).toHaveLength(1)
  })
})

describe('a fork\'s own vitest (tests/vitest-fixtures/)', () => {
  const folder = mkdtempSync(join(tmpdir(), 'vitest-fork-'))
  afterAll(() => rmSync(folder, { recursive: true, force: true }))
  let outcomes: Promise<TestOutcome[]> | undefined
  /** The outcome of each test of the fork's vitest, run once, for whichever test below asks first. */
  function forkOutcomes(): Promise<TestOutcome[]> {
    outcomes ??= (async () => {
      const output = join(folder, 'outcomes.json')
      const args = ['node_modules/vitest/vitest.mjs', 'run', '--config', 'tests/vitest-fixtures/vitest.config.ts', '--reporter=./tests/vitest-fixtures/outcomes-reporter.ts']
      // It fails, as it should: its failed tests are read below.
      await promisify(execFile)('node', args, { cwd: projectRoot, env: { ...process.env, OUTCOMES_FILE: output } }).catch(() => undefined)
      return JSON.parse(readFileSync(output, 'utf8')) as TestOutcome[]
    })()
    return outcomes
  }
  /** Each test of one suite: the case id (or the last test's name), its state, and why it was skipped or failed. */
  async function suiteOutcomes(suite: string): Promise<[string, string, string | undefined][]> {
    return (await forkOutcomes())
      .filter((outcome) => outcome.suites[0] === suite)
      .map((outcome) => [outcome.name.split(': ')[0]!, outcome.state, outcome.note ?? outcome.errors?.join('\n')])
  }
  const lastTest = 'ran at least one case (a suite whose every case is skipped tests nothing)'

  it('runs the cases one after another under sequence.concurrent, and fails a listed case that errs', async () => {
    expect(await suiteOutcomes('the reference over the wire, under sequence.concurrent')).toEqual([
      ...['surf-order-append-only-surface', 'surf-order-start-equals-end', 'surf-order-chain-fold', 'surf-order-chain-shadowed-in-surface-order'].map((id) => [id, 'passed', undefined]),
      [lastTest, 'passed', undefined],
    ])
    const [hanging, ...rest] = await suiteOutcomes('a hanging adapter whose baseline lists the case')
    expect(hanging?.slice(0, 2)).toEqual(['surf-order-append-only-surface', 'failed'])
    expect(hanging?.[2]).toContain('ERROR surf-order-append-only-surface [SURF-3] (the baseline lists this case, but no baseline excuses an error): timeout')
    expect(rest).toEqual([[lastTest, 'passed', undefined]])
  }, 60_000)

  it('skips a case whose profile the adapter does not claim, and a fail its baseline lists, saying why', async () => {
    expect(await suiteOutcomes('a fake adapter with a baseline')).toEqual([
      ['surf-order-append-only-surface', 'passed', undefined],
      ['surf-order-chain-fold', 'skipped', 'known fail (baseline): SURF-6: the fake puts a replacement at the tail'],
      ['surf-order-chain-numeric-reversed-writer', 'skipped', 'profile "writer" not declared'],
      [lastTest, 'passed', undefined],
    ])
  }, 60_000)

  it('fails a listed case that passes under strictBaseline, and a listed id the suite lacks, and still skips a listed fail', async () => {
    expect(await suiteOutcomes('a fake adapter under strictBaseline')).toEqual([
      ['surf-order-append-only-surface', 'failed', 'NEW PASS: surf-order-append-only-surface passes but the baseline lists it (listed, though the fake answers it right\\u001b[2J); remove it from the baseline'],
      ['surf-order-chain-fold', 'skipped', 'known fail (baseline): SURF-6: the fake puts a replacement at the tail'],
      ['the baseline lists only cases of this suite (strictBaseline)', 'failed', 'registerConformanceSuite: under strictBaseline, the baseline lists 1 case id this suite does not have (a typo, or a case that left the suite): surf-order-no-such-case'],
      [lastTest, 'passed', undefined],
    ])
  }, 60_000)

  it('fails a case with the adapter\'s message escaped, its lines kept, and skips a listed one with its reason escaped', async () => {
    const [failed] = await suiteOutcomes('an adapter whose messages hold escape sequences')
    expect(failed?.[1]).toBe('failed')
    expect(failed?.[2]).toContain('evil\\u001b[2J failed\nevil\\u001b[2J: agrees with the reference')
    const [listed] = await suiteOutcomes('a fake adapter whose baseline reason holds escape sequences')
    expect(listed).toEqual(['surf-order-chain-fold', 'skipped', 'known fail (baseline): SURF-6: listed\\u001b]0;T\\u0007'])
    for (const outcome of [failed, listed]) expect(outcome?.[2]).not.toMatch(/\u001b/)
  }, 60_000)

  it('says escaped why an adapter did not start, its stderr\'s lines kept, and what it claims that the spec lacks', async () => {
    const [unstarted] = await suiteOutcomes('an adapter that cannot start, its stderr holding escape sequences')
    expect(unstarted?.[1]).toBe('skipped')
    expect(unstarted?.[2]).toContain('--- last lines of the adapter\'s stderr ---\nevil\\u001b[2J')
    const [claims] = await suiteOutcomes('an adapter that claims a profile holding escape sequences')
    expect(claims?.[1]).toBe('skipped')
    expect(claims?.[2]).toContain('registerConformanceSuite: the adapter claims unknown profile(s) reader\\u001b[2J')
    for (const outcome of [unstarted, claims]) expect(outcome?.[2]).not.toMatch(/\u001b/)
  }, 60_000)

  it('names a test by its case\'s id and title, the title\'s control characters escaped', async () => {
    const names = (await forkOutcomes()).filter((outcome) => outcome.name.startsWith('own-three-appends')).map((outcome) => outcome.name)
    expect(names.length).toBeGreaterThan(0)
    for (const name of names) expect(name).toBe('own-three-appends: three appends push their seqs at the tail\\u001b[2J')
  }, 60_000)

  it('fails a listed id that a folder of vectors lacks under strictBaseline, when the baseline is the folder\'s', async () => {
    expect(await suiteOutcomes('a fork\'s own vectors under strictBaseline, with a baseline of the folder')).toEqual([
      ['own-three-appends', 'passed', undefined],
      ['the baseline lists only cases of the vectors under tests/vitest-fixtures/own-vectors (strictBaseline)', 'failed', 'registerConformanceSuite: under strictBaseline, the baseline lists 1 case id the vectors under tests/vitest-fixtures/own-vectors do not have (a typo, or a case that left the folder): own-deleted'],
      [lastTest, 'passed', undefined],
    ])
  }, 60_000)

  it('fails the last test of a suite whose every case was skipped', async () => {
    expect(await suiteOutcomes('a fake adapter that claims none of its cases')).toEqual([
      ['surf-atomic-rejected-replace-leaves-surface', 'skipped', 'profile "writer" not declared'],
      ['surf-order-chain-numeric-reversed-writer', 'skipped', 'profile "writer" not declared'],
      [lastTest, 'failed', 'registerConformanceSuite: every one of the 2 selected cases was skipped, so nothing was tested: claim the profiles and provide the operations the cases need'],
    ])
  }, 60_000)
})
