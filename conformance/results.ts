// The results of running the suite against one adapter, as plain data, and the counts every summary,
// report and matrix is made of. A skip or an error is never counted as a pass.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { AdapterMeta } from './adapter.ts'
import { baselineFailsRun, type BaselineVerdict } from './baseline.ts'
import { NOT_PROVIDED, PROVIDED_UNCLAIMED, UNLISTED_CODE_RULE, type CaseOutcome, type CaseStatus } from './run-case.ts'
import { parseChapterPrefixes } from './spec-catalog.ts'
import { projectRoot, type VectorCase } from './vector-cases.ts'
import { plural } from './wording.ts'

export interface AdapterRun {
  /** The adapter as the command line named it (a registered name or a command). */
  label: string
  /** Undefined when the adapter could not be started; `startError` then says why. */
  adapter?: AdapterMeta
  startError?: string
  /**
   * How the adapter broke the protocol after its last reply, which no case is left to report (a line
   * when no reply was due, an exit status other than 0 on stop): the run fails, whatever the baseline.
   */
  stopError?: string
  outcomes: CaseOutcome[]
  baseline?: BaselineVerdict
  durationMs: number
  /** The tail of the adapter's stderr, kept when the run failed. */
  stderrTail?: string
}

export type Counts = Record<CaseStatus, number>

export function emptyCounts(): Counts {
  return { pass: 0, fail: 0, error: 0, skip: 0 }
}

export function countOutcomes(outcomes: readonly CaseOutcome[]): Counts {
  const counts = emptyCounts()
  for (const outcome of outcomes) counts[outcome.status] += 1
  return counts
}

/** Counts per key, where each case may count under several keys (a case names several requirements). */
export function countBy(outcomes: readonly CaseOutcome[], keysOf: (id: string) => readonly string[]): Map<string, Counts> {
  const byKey = new Map<string, Counts>()
  for (const outcome of outcomes) {
    for (const key of keysOf(outcome.id)) {
      const counts = byKey.get(key) ?? emptyCounts()
      counts[outcome.status] += 1
      byKey.set(key, counts)
    }
  }
  return byKey
}

export function chapterKeys(cases: readonly VectorCase[]): (id: string) => string[] {
  const chapterOf = new Map(cases.map((vector) => [vector.id, vector.chapter]))
  return (id) => [chapterOf.get(id) ?? '?']
}

export function requirementKeys(cases: readonly VectorCase[]): (id: string) => readonly string[] {
  const requirementsOf = new Map(cases.map((vector) => [vector.id, vector.requirements]))
  return (id) => requirementsOf.get(id) ?? []
}

let prefixRank: Map<string, number> | undefined

/** Orders requirement IDs as the spec does: by the chapter of their prefix, then by number. */
export function compareRequirementIds(left: string, right: string): number {
  prefixRank ??= new Map([...parseChapterPrefixes(readFileSync(join(projectRoot, 'spec/README.md'), 'utf8')).values()].flat().map((prefix, index) => [prefix, index]))
  const [leftPrefix = '', leftNumber = '0'] = left.split('-')
  const [rightPrefix = '', rightNumber = '0'] = right.split('-')
  const rank = (prefix: string): number => prefixRank!.get(prefix) ?? Number.MAX_SAFE_INTEGER
  return rank(leftPrefix) - rank(rightPrefix) || leftPrefix.localeCompare(rightPrefix) || Number(leftNumber) - Number(rightNumber)
}

export function failedCount(counts: Counts): number {
  return counts.fail + counts.error
}

/**
 * A started run whose every case was skipped, or that was given no case (a caller of the package
 * may select none): whatever its claims, it tested nothing, which is no pass.
 */
export function testedNothing(run: AdapterRun): boolean {
  return run.adapter !== undefined && run.outcomes.every((outcome) => outcome.status === 'skip')
}

/**
 * Whether cases of a claimed profile were skipped because the adapter lacks some of their operations,
 * or failed because the implementation cannot handle their input (which a baseline may list): the run
 * may pass, but the claim is partial (spec/profiles.md), and the verdict says so.
 */
export function claimIsPartial(outcomes: readonly { status: string; reason?: string; unsupported?: true }[]): boolean {
  return outcomes.some((outcome) => (outcome.status === 'skip' && outcome.reason?.startsWith(NOT_PROVIDED) === true) || outcome.unsupported === true)
}

/** What follows "passed" in a verdict: " (baseline)", " (partial claim)", both, or nothing. */
export function passedNote(baseline: boolean, partialClaim: boolean): string {
  const notes = [baseline ? 'baseline' : '', partialClaim ? 'partial claim' : ''].filter(Boolean)
  return notes.length === 0 ? '' : ` (${notes.join('; ')})`
}

/** What a summary and the reports say of a run that tested nothing, of `caseCount` cases. */
export function testedNothingText(caseCount: number): string {
  return `${caseCount === 0 ? 'no case was given' : 'every selected case was skipped'}, so this run tested nothing: it fails`
}

/**
 * Whether this adapter's run fails: it could not start, it broke the protocol at stop, it tested
 * nothing, it has a fail or an error that no baseline covers, or (strict) a listed case passed or the
 * baseline lists an id the suite does not have.
 */
export function runFails(run: AdapterRun, strictBaseline: boolean): boolean {
  if (run.startError !== undefined || run.stopError !== undefined || testedNothing(run)) return true
  if (run.baseline !== undefined) return baselineFailsRun(run.baseline, strictBaseline)
  return failedCount(countOutcomes(run.outcomes)) > 0
}

type SkipsByProfile = Map<string, { skipped: number; operations: Set<string> }>

/** The skips whose reason holds `marker`, per profile, with the operations the reason lists after it. */
function skipsMarked(run: AdapterRun, cases: readonly VectorCase[], marker: string): SkipsByProfile {
  const profileOf = new Map(cases.map((vector) => [vector.id, vector.profile]))
  const byProfile: SkipsByProfile = new Map()
  for (const outcome of run.outcomes) {
    const at = outcome.status === 'skip' ? outcome.reason?.indexOf(marker) ?? -1 : -1
    if (at === -1) continue
    const profile = profileOf.get(outcome.id) ?? '?'
    const entry = byProfile.get(profile) ?? { skipped: 0, operations: new Set<string>() }
    entry.skipped += 1
    for (const operation of outcome.reason!.slice(at + marker.length).split(', ')) entry.operations.add(operation)
    byProfile.set(profile, entry)
  }
  return byProfile
}

/**
 * Warnings about claims the run did not back: a claimed profile whose cases were skipped because the
 * adapter lacks some of its operations, a profile not claimed whose cases the adapter's operations
 * could have run, and a run that tested nothing (every case skipped, or no case given).
 */
export function claimWarnings(run: AdapterRun, cases: readonly VectorCase[]): string[] {
  const lacking = [...skipsMarked(run, cases, NOT_PROVIDED)].map(([profile, { skipped, operations }]) =>
    `profile ${profile} is claimed, but ${plural(skipped, 'of its cases was', 'of its cases were')} skipped for operations the adapter does not provide: ${[...operations].join(', ')}`)
  const unclaimed = [...skipsMarked(run, cases, PROVIDED_UNCLAIMED)].map(([profile, { skipped, operations }]) =>
    `profile ${profile} is not claimed, so ${plural(skipped, 'of its cases was', 'of its cases were')} skipped, though the adapter provides their operations (${[...operations].join(', ')}): claim the profile to run them`)
  const warnings = [...lacking, ...unclaimed, ...unlistedCodeWarnings(run.outcomes), ...unsupportedWarnings(run.outcomes)]
  if (testedNothing(run)) warnings.push(testedNothingText(run.outcomes.length))
  return warnings
}

/**
 * A warning about fails whose rejection code spec/errors.md does not list: such a code is right for no
 * vector, and most often stands for "not implemented", which an operation must answer as unsupported or
 * report as a failure (spec/adapter-protocol.md), so a baseline that lists these cases lists no wrong
 * verdicts.
 */
function unlistedCodeWarnings(outcomes: readonly CaseOutcome[]): string[] {
  const tally = talliedBy(outcomes, (outcome) => outcome.unlistedCode)
  return tally === undefined ? [] : [`${tally.cases} with a rejection code spec/errors.md does not list, so no verdict: ${tally.counted}; ${UNLISTED_CODE_RULE}`]
}

/** A warning about fails where the implementation answered that it cannot handle the input: each makes a claim of its profile partial. */
function unsupportedWarnings(outcomes: readonly CaseOutcome[]): string[] {
  const tally = talliedBy(outcomes, (outcome) => (outcome.unsupported === true ? outcome.operation : undefined))
  return tally === undefined ? [] : [`${tally.cases} where the implementation answered that it cannot handle the input (unsupported): ${tally.counted}; no claim of their profiles holds while they fail`]
}

/** The outcomes `keyOf` gives a key, counted by key (`KEY (n), …`) and in all (`n cases fail`); undefined when none has one. */
function talliedBy(outcomes: readonly CaseOutcome[], keyOf: (outcome: CaseOutcome) => string | undefined): { cases: string; counted: string } | undefined {
  const counts = new Map<string, number>()
  for (const outcome of outcomes) {
    const key = keyOf(outcome)
    if (key !== undefined) counts.set(key, (counts.get(key) ?? 0) + 1)
  }
  if (counts.size === 0) return undefined
  const total = [...counts.values()].reduce((sum, count) => sum + count, 0)
  return { cases: plural(total, 'case fails', 'cases fail'), counted: [...counts].map(([key, count]) => `${key} (${count})`).join(', ') }
}

/** How a case stands against the baseline, when there is one and it has something to say. */
export function baselineMark(run: AdapterRun, outcome: CaseOutcome): 'known-failure' | 'new-fail' | 'new-pass' | undefined {
  const verdict = run.baseline
  if (verdict === undefined) return undefined
  const listed = Object.hasOwn(verdict.reasons, outcome.id)
  // No baseline excuses an error (baseline.ts).
  if (outcome.status === 'error') return 'new-fail'
  if (outcome.status === 'fail') return listed ? 'known-failure' : 'new-fail'
  return outcome.status === 'pass' && listed ? 'new-pass' : undefined
}

/** How many times each of `names` occurs. */
function occurrences(names: readonly string[]): Map<string, number> {
  const count = new Map<string, number>()
  for (const name of names) count.set(name, (count.get(name) ?? 0) + 1)
  return count
}

type NamedRun = { label: string; adapter?: { name: string; version: string } | null }

/** Each run's adapter name, with the version too when another run goes by the same name. */
function versionedNames(runs: readonly NamedRun[]): string[] {
  const names = runs.map((run) => run.adapter?.name ?? run.label)
  const byName = occurrences(names)
  return runs.map((run, index) => (byName.get(names[index]!)! > 1 && run.adapter ? nameAndVersion(run.adapter) : names[index]!))
}

/**
 * For each run, ` #n` (its place among them) when other runs go by the same versioned name, and
 * otherwise nothing: what tells one build run twice apart, in every output.
 */
export function runPlaceSuffixes(runs: readonly NamedRun[]): string[] {
  const versioned = versionedNames(runs)
  const byVersioned = occurrences(versioned)
  const seen = new Map<string, number>()
  return versioned.map((name) => {
    if (byVersioned.get(name)! === 1) return ''
    seen.set(name, (seen.get(name) ?? 0) + 1)
    return ` #${seen.get(name)}`
  })
}

/**
 * The name each run goes by in a closing table or a JUnit suite: its adapter's name, with the version
 * too when another run goes by the same name (two builds of one implementation), and its place among
 * them (` #2`) when that is not enough either (one build run twice, with another backend), so that
 * their rows and suites stay apart.
 */
export function distinctRunNames(runs: readonly NamedRun[]): string[] {
  const places = runPlaceSuffixes(runs)
  return versionedNames(runs).map((name, index) => `${name}${places[index]!}`)
}

/**
 * An adapter's name and version, the version once when the name ends with it (`dsh-session@0.1.0-rc.8`):
 * `name version` for people, or with `joiner` '@' `name@version` as the fuzz summary names it.
 */
export function nameAndVersion(meta: { name: string; version: string }, joiner = ' '): string {
  return meta.name.endsWith(`@${meta.version}`) ? meta.name : `${meta.name}${joiner}${meta.version}`
}

/** An adapter as a warning names it: its name and version, and how the command line gave it when that differs. */
export function adapterTitle(run: AdapterRun): string {
  if (run.adapter === undefined) return run.label
  const title = nameAndVersion(run.adapter)
  return run.label === run.adapter.name ? title : `${title} (${run.label})`
}
