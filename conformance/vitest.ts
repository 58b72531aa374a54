// The suite as tests of another project's vitest, for forks that gate in their own test runner:
//
//   import { registerConformanceSuite } from 'dsh-session-conformance/vitest'
//   registerConformanceSuite({ adapterCmd: 'python3 adapter.py', baseline: 'conformance-baseline.yaml' })
//
// Each selected case becomes one test. A skip (capability not declared) and a fail the baseline
// lists are skipped tests that say why, never passes; any other fail, and every error, is a failed
// test (no baseline excuses an error); a listed case that passes is a failed test under
// strictBaseline, and a warning otherwise. Notes on the baseline (another adapter's, an older
// suite's, ids the suite does not have) are warnings too, and so are the run warnings the command
// line's summary gives, once the suite has run; under strictBaseline a test fails when the baseline
// lists ids the suite does not have. A last test fails when every case was
// skipped: such a suite tested nothing. The tests run one after another, whatever the caller's
// configuration says: they share one adapter, which answers one request at a time.
import { afterAll, beforeAll, describe, it, type TestContext } from 'vitest'
import { adapterClaimProblem, type Adapter } from './adapter.ts'
import { AdapterStartFailure } from './adapter-process.ts'
import { stderrBlock, stderrTailOf } from './adapter-runs.ts'
import { adapterByName } from './adapters/registry.ts'
import { baselineFrom, baselineNotes, casesOfRun, idsNotIn, idsNotInRunText, readBaseline, writtenForRunCases, type Baseline } from './baseline.ts'
import { describeFilters, filtersFromLists, selectCases, unmatchedFilterValues, type CaseFilters } from './filters.ts'
import { claimWarnings } from './results.ts'
import { runCase, type CaseOutcome } from './run-case.ts'
import { suiteIdentity } from './suite-identity.ts'
import { DEFAULT_TIMEOUT_MS, MIN_START_TIMEOUT_MS, startSubprocessAdapter } from './subprocess-adapter.ts'
import { loadVectorCases, loadVectorFolder, type VectorCase } from './vector-cases.ts'
import { likelyMeant, printable, printableLines } from './wording.ts'

export interface ConformanceSuiteOptions {
  /** An adapter object (the caller closes it), or the name of a registered one, such as `reference`. */
  adapter?: Adapter | string
  /** A program that speaks spec/adapter-protocol.md, run through the shell. */
  adapterCmd?: string
  /** The working directory of adapterCmd. */
  cwd?: string
  /** How long each reply of adapterCmd, or each operation of an adapter object, may take (default 5000 ms). */
  timeoutMs?: number
  /** Known failures: the path of a baseline file (YAML or JSON), or its content. */
  baseline?: string | Baseline
  /** A listed case that passes fails its test. */
  strictBaseline?: boolean
  filters?: Partial<CaseFilters>
  /** A folder of vector files to run instead of the suite's, as `--vectors DIR` on the command line (a relative one from process.cwd(), not `cwd`). */
  vectors?: string
  /** The name of the outer describe block (default: dsh-session conformance). */
  name?: string
}

/** The least time vitest gives the first start; the hook also allows the adapter's own start timeout. */
const START_HOOK_TIMEOUT_MS = 30_000

async function openAdapter(options: ConformanceSuiteOptions): Promise<{ adapter: Adapter; owned: boolean }> {
  if (options.adapterCmd !== undefined) {
    return { adapter: await startSubprocessAdapter(options.adapterCmd, { cwd: options.cwd, timeoutMs: options.timeoutMs }), owned: true }
  }
  if (typeof options.adapter === 'string') return { adapter: await adapterByName(options.adapter), owned: true }
  return { adapter: options.adapter!, owned: false }
}

async function runAsTest(context: TestContext, adapter: Adapter, vector: VectorCase, listedReason: string | undefined, strict: boolean, ran: (outcome: CaseOutcome) => void, timeoutMs: number): Promise<void> {
  const outcome = await runCase(adapter, vector, { timeoutMs })
  ran(outcome)
  if (outcome.status === 'skip') context.skip(printable(outcome.reason ?? ''))
  if (outcome.status === 'pass') {
    if (listedReason === undefined) return
    const newPass = `NEW PASS: ${vector.id} passes but the baseline lists it (${printable(listedReason)}); remove it from the baseline`
    if (strict) throw new Error(newPass)
    console.warn(newPass)
    return
  }
  // A baseline lists wrong answers; an error says nothing about the answer, so none is excused.
  if (listedReason !== undefined && outcome.status === 'fail') context.skip(`known fail (baseline): ${printable(listedReason)}`)
  const listedNote = listedReason === undefined ? '' : ' (the baseline lists this case, but no baseline excuses an error)'
  // The reason quotes the adapter (its message, its traceback): its lines kept, each escaped.
  throw new Error(`${outcome.status.toUpperCase()} ${vector.id} [${vector.requirements.join(', ')}]${listedNote}: ${printableLines(outcome.reason ?? '')}`)
}

/** The options registerConformanceSuite takes: any other key (a typo such as `strictbaseline`) is refused. */
const OPTION_KEYS: readonly (keyof ConformanceSuiteOptions)[] = ['adapter', 'adapterCmd', 'cwd', 'timeoutMs', 'baseline', 'strictBaseline', 'filters', 'vectors', 'name']

/** What is wrong with the options' keys, if anything: one it does not take, with the one likely meant. */
function unknownOptionKey(options: object): string | undefined {
  const unknown = Object.keys(options).find((key) => !(OPTION_KEYS as readonly string[]).includes(key))
  if (unknown === undefined) return undefined
  const meant = likelyMeant(unknown.toLowerCase(), OPTION_KEYS.map((key) => key.toLowerCase()))
  const named = meant === undefined ? '' : `; did you mean ${OPTION_KEYS.find((key) => key.toLowerCase() === meant)}?`
  return `registerConformanceSuite takes no option ${unknown}${named} (its options: ${OPTION_KEYS.join(', ')})`
}

/** Registers one test per selected case, grouped by chapter, with vitest's describe and it. */
export function registerConformanceSuite(options: ConformanceSuiteOptions): void {
  // A JavaScript test file, or one outside tsc as the README advises, would otherwise drop a typo unread.
  const unknownKey = unknownOptionKey(options)
  if (unknownKey !== undefined) throw new Error(unknownKey)
  if ((options.adapter === undefined) === (options.adapterCmd === undefined)) {
    throw new Error('registerConformanceSuite needs exactly one of adapter and adapterCmd')
  }
  const filters = filtersFromLists(options.filters ?? {})
  if (typeof filters === 'string') throw new Error(`registerConformanceSuite: ${filters}`)
  const all = options.vectors === undefined ? loadVectorCases() : loadVectorFolder(options.vectors)
  const unmatched = unmatchedFilterValues(all, filters)
  if (unmatched !== undefined) throw new Error(`registerConformanceSuite: ${unmatched}`)
  const cases = selectCases(all, filters)
  if (cases.length === 0) throw new Error(`registerConformanceSuite: no case matches the filters ${describeFilters(filters)}`)
  // A baseline given as content is checked as a file's would be: no entry without a reason, none twice.
  const baseline = typeof options.baseline === 'string' ? readBaseline(options.baseline) : options.baseline === undefined ? undefined : baselineFrom(options.baseline, 'the baseline option')
  const listed = new Map(baseline?.failures.map((entry) => [entry.id, entry.reason]))
  const suite = suiteIdentity(all, options.vectors)
  const stepTimeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  // A case may first restart an adapter that crashed or hung in the case before, which may take the
  // subprocess adapter's whole start timeout; vitest must not give up on the case before the runner does.
  const restartAllowance = Math.max(stepTimeout, MIN_START_TIMEOUT_MS)
  let opened: { adapter: Adapter; owned: boolean } | undefined
  const outcomes: CaseOutcome[] = []
  const ran = (): number => outcomes.filter((outcome) => outcome.status !== 'skip').length

  describe.sequential(options.name ?? 'dsh-session conformance', () => {
    beforeAll(async () => {
      opened = await openAdapter(options).catch((error: unknown) => {
        if (!(error instanceof AdapterStartFailure)) throw error
        throw new Error(`${printable(error.message)}\n${stderrBlock('the adapter', stderrTailOf(error.stderr))}`)
      })
      const claimProblem = adapterClaimProblem(opened.adapter)
      if (claimProblem !== undefined) throw new Error(`registerConformanceSuite: ${printable(claimProblem)}`)
      const context = { source: 'baseline', adapter: opened.adapter.meta.name, suite, caseIds: new Set(all.map((vector) => vector.id)) }
      for (const note of baseline === undefined ? [] : baselineNotes(baseline, context)) console.warn(`dsh-conformance: note: ${printable(note)}`)
    }, Math.max(START_HOOK_TIMEOUT_MS, restartAllowance + 5_000))
    afterAll(async () => {
      // What the command line's summary warns of (a partial claim, unlisted codes, unsupported inputs).
      const adapter = opened?.adapter.meta
      if (adapter !== undefined && ran() > 0) {
        for (const warning of claimWarnings({ label: adapter.name, adapter, outcomes, durationMs: 0 }, cases)) console.warn(`dsh-conformance: warning: ${printable(warning)}`)
      }
      if (opened?.owned) await opened.adapter.close?.()
    })
    for (const chapter of [...new Set(cases.map((vector) => vector.chapter))]) {
      describe.sequential(chapter, () => {
        for (const vector of cases.filter((candidate) => candidate.chapter === chapter)) {
          const timeout = restartAllowance + (vector.steps.length + 1) * stepTimeout
          it(`${vector.id}: ${printable(vector.title)}`, (context) => runAsTest(context, opened!.adapter, vector, listed.get(vector.id), options.strictBaseline ?? false, (outcome) => { outcomes.push(outcome) }, stepTimeout), timeout)
        }
      })
    }
    // A baseline written for other cases (a suite's given to a folder of vectors) lists ids of another set.
    if (options.strictBaseline === true && baseline !== undefined && writtenForRunCases(baseline, suite)) {
      const missing = idsNotIn(baseline, new Set(all.map((vector) => vector.id)))
      it(`the baseline lists only cases of ${casesOfRun(suite)} (strictBaseline)`, () => {
        if (missing.length > 0) throw new Error(`registerConformanceSuite: under strictBaseline, ${idsNotInRunText(missing, [], suite.vectors)}`)
      })
    }
    it('ran at least one case (a suite whose every case is skipped tests nothing)', () => {
      if (ran() === 0) throw new Error(`registerConformanceSuite: every one of the ${cases.length} selected cases was skipped, so nothing was tested: claim the profiles and provide the operations the cases need`)
    })
  })
}
