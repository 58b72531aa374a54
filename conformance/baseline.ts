// Baselines for forks' CI: a file that lists the cases an implementation is known to fail, each with
// the reason. A run compared with its baseline fails on a NEW FAIL: a fail the baseline does not
// list, or any error. A baseline lists wrong answers, and inputs the implementation says it cannot
// handle; an error (a crash, a timeout, a malformed reply) says nothing about the answer, so no entry
// excuses it. A listed case that passes is a NEW PASS,
// which fails the run only under --strict-baseline.
import { folderNameOf } from './folder-walk.ts'
import { Document, isMap, isScalar, isSeq, parseDocument, visit, type Scalar } from 'yaml'
import type { CaseOutcome } from './run-case.ts'
import type { SuiteIdentity } from './suite-identity.ts'
import type { Baseline, BaselineEntry } from '../generated/types/index.ts'
import { isRecord } from '../reference/lossless-json.ts'
import { likelyMeant, plural, shortened } from './wording.ts'
import { NO_LINES, parseYamlText, readGivenFile, refusalOf, unknownMembers, type LineAt } from './yaml-text.ts'

// The file's shape is schemas/baseline.schema.json; its types are generated from it.
export type { Baseline, BaselineEntry }

export interface BaselineVerdict {
  /** Where the baseline came from, for messages and reports. */
  source: string
  /** Fails the baseline does not list, and every error, listed or not. */
  newFailures: string[]
  /** Listed cases that passed. */
  newPasses: string[]
  /** Listed cases that still fail. */
  stillFailing: string[]
  /** Listed cases that were skipped or not selected by the filters: they say nothing either way. */
  notRun: string[]
  /** Listed ids the suite does not have (a typo, or a case that left it): stale entries, which fail a strict run. */
  unknownIds: string[]
  notes: string[]
  /** The listed reason of every id the baseline lists. */
  reasons: Record<string, string>
}

/** Said of a case the baseline lists that ended in an error: a NEW FAIL all the same. */
export const LISTED_ERROR_NOTE = 'listed in the baseline, but an error, which no baseline excuses'

/** Reads a baseline from YAML or JSON text (JSON is YAML); throws an Error naming what is wrong, and where. */
export function parseBaseline(text: string, source: string): Baseline {
  // The writer shares reasons through aliases, as many as there are failures.
  const { value, lineAt } = parseYamlText(text, source, { maxAliasCount: -1 })
  return baselineFrom(value, source, lineAt)
}

const BASELINE_MEMBERS = ['adapter', 'suiteVersion', 'suiteHash', 'vectors', 'failures']
const ENTRY_MEMBERS = ['id', 'reason']

/**
 * Checks a baseline given as a value (as parsed, or as a caller built it); throws an Error naming what
 * is wrong, at its line when `lineAt` knows it.
 */
export function baselineFrom(document: unknown, source: string, lineAt: LineAt = NO_LINES): Baseline {
  const fail = refusalOf('baseline', source, lineAt)
  if (!isRecord(document)) return fail('expected a mapping with adapter and failures')
  const stray = unknownMembers(document, BASELINE_MEMBERS)
  if (stray !== undefined) fail(`it ${stray.text}`, [], stray.first)
  const { adapter, suiteVersion, suiteHash, vectors, failures } = document
  if (typeof adapter !== 'string' || adapter === '') fail('adapter must be a non-empty string', [], 'adapter')
  if (suiteVersion !== undefined && typeof suiteVersion !== 'string') fail('suiteVersion must be a string', [], 'suiteVersion')
  if (suiteHash !== undefined && typeof suiteHash !== 'string') fail('suiteHash must be a string', [], 'suiteHash')
  if (vectors !== undefined && (typeof vectors !== 'string' || vectors === '')) fail('vectors must be a non-empty string: the folder the baseline was written for', [], 'vectors')
  if (!Array.isArray(failures)) return fail('failures must be a list of {id, reason}', [], 'failures')
  const seen = new Set<string>()
  const entries = failures.map((entry, index): BaselineEntry => {
    const at = ['failures', index]
    if (!isRecord(entry) || typeof entry['id'] !== 'string' || entry['id'] === '') return fail(`failures[${index}] needs a string id`, at)
    // A misspelt reason (`reasn:`) is named as such, not as a missing reason.
    const strayInEntry = unknownMembers(entry, ENTRY_MEMBERS)
    if (strayInEntry !== undefined) fail(`failures[${index}] (${entry['id']}) ${strayInEntry.text}`, at, strayInEntry.first)
    if (typeof entry['reason'] !== 'string' || entry['reason'].trim() === '') return fail(`failures[${index}] (${entry['id']}) needs a reason`, at)
    if (seen.has(entry['id'])) fail(`${entry['id']} is listed twice`, at)
    seen.add(entry['id'])
    return { id: entry['id'], reason: entry['reason'].trim() }
  })
  return {
    adapter: adapter as string,
    ...(suiteVersion === undefined ? {} : { suiteVersion: suiteVersion as string }),
    ...(suiteHash === undefined ? {} : { suiteHash: suiteHash as string }),
    ...(vectors === undefined ? {} : { vectors: vectors as string }),
    failures: entries,
  }
}

export function readBaseline(path: string): Baseline {
  return parseBaseline(readGivenFile(path, 'baseline'), path)
}

export interface BaselineContext {
  source: string
  adapter: string
  suite: SuiteIdentity
  /** Every case id of the suite, to name listed ids it does not have. */
  caseIds?: ReadonlySet<string>
}

/**
 * Whether the baseline was written for the run's cases, so that its ids and hash are theirs: one
 * written by a run of the suite (no `vectors`) given to a run of the suite, or one written by a run of
 * a folder given to a run of that folder. Any other (a suite's baseline given to replayed fuzz output,
 * say) lists ids of another set, which the run's cases need not have.
 */
export function writtenForRunCases(baseline: Baseline, suite: SuiteIdentity): boolean {
  if (suite.vectors === undefined || baseline.vectors === undefined) return suite.vectors === baseline.vectors
  // By the folder's name (folderNameOf: `my-vectors/` is `./my-vectors`), which a written baseline
  // stores instead of the path as given: `.` would name whatever folder a later reader runs in.
  return folderNameOf(suite.vectors) === folderNameOf(baseline.vectors)
}

/** The cases a run holds a baseline's ids to, as notes name them. */
export function casesOfRun(suite: SuiteIdentity): string {
  return suite.vectors === undefined ? 'this suite' : `the vectors under ${suite.vectors}`
}

/**
 * What is said of a baseline written for other cases than the run's: which ones; or, of one that names
 * no folder given to a run of a folder that has some of its ids, how to mend it (a folder's baseline
 * written before baselines named their folder looks like a suite's). Nothing for a suite's baseline
 * given to fuzz output, whose ids are none of its.
 */
function otherCasesNote(baseline: Baseline, suite: SuiteIdentity, caseIds: ReadonlySet<string> | undefined): string | undefined {
  if (baseline.vectors !== undefined) {
    return `the baseline was written for the vectors under ${baseline.vectors}, the run is of ${suite.vectors === undefined ? "the suite's own" : `those under ${suite.vectors}`}: its ids are not held to the run's cases`
  }
  const shared = caseIds === undefined ? 0 : baseline.failures.filter((entry) => caseIds.has(entry.id)).length
  if (shared === 0) return undefined
  const among = `${shared} of its ${plural(baseline.failures.length, 'id')} ${shared === 1 ? 'is' : 'are'} among them`
  return `the baseline names no folder (vectors:), so its ids are not held to the cases under ${suite.vectors}, though ${among}: if it is this folder's baseline, add \`vectors: ${suite.vectors}\` to it`
}

/** What is said of a baseline written by another version of the suite, whose rules for running vectors may differ. */
function otherVersionNote(baseline: Baseline, suite: SuiteIdentity): string | undefined {
  if (baseline.suiteVersion === undefined || baseline.suiteVersion === suite.version) return undefined
  return `the baseline was written by version ${baseline.suiteVersion} of the suite, this is ${suite.version}: the rules for running vectors may have changed since (CHANGELOG.md); once its entries are understood, --baseline FILE --write-baseline FILE restamps it`
}

/** What is said of a baseline written for the run's cases when they have changed since. */
function otherHashNote(baseline: Baseline, suite: SuiteIdentity): string | undefined {
  if (baseline.suiteHash === undefined || baseline.suiteHash === suite.contentHash) return undefined
  const then = suite.vectors === undefined ? `suite ${baseline.suiteHash}, this suite is` : `cases ${baseline.suiteHash}, ${casesOfRun(suite)} are`
  const after = 'its case ids still apply, and a case added or changed since fails as a NEW FAIL until it is mended or listed; once each is understood, --baseline FILE --write-baseline FILE restamps it'
  return `the baseline was written against ${then} ${suite.contentHash}: ${after}`
}

/**
 * What a person should know about a baseline before trusting it: it is another adapter's, written for
 * other cases or for an earlier state of these, or lists ids the run's cases lack (`unknown`, when the
 * caller has them already).
 */
export function baselineNotes(baseline: Baseline, context: BaselineContext, unknown = idsNotInRun(baseline, context)): string[] {
  const { suite } = context
  const forRun = writtenForRunCases(baseline, suite)
  const notes = [
    baseline.adapter === context.adapter ? undefined : `the baseline is for adapter ${baseline.adapter}, the run is of ${context.adapter}`,
    // Another version or hash says something only of a baseline written for the run's cases.
    forRun ? otherVersionNote(baseline, suite) : undefined,
    forRun ? otherHashNote(baseline, suite) : otherCasesNote(baseline, suite, context.caseIds),
    unknown.length === 0 ? undefined : idsNotInRunText(unknown, [...context.caseIds ?? []], suite.vectors),
  ]
  return notes.filter((note): note is string => note !== undefined)
}

/**
 * What a note, a JUnit failure or a vitest test says of the ids a baseline lists that the run's cases
 * (the suite's, or those under `folder`) do not have, each with the id of `known` it most likely
 * meant, if any.
 */
export function idsNotInRunText(ids: readonly string[], known: readonly string[] = [], folder?: string): string {
  const named = ids.map((id) => {
    const meant = known.length === 0 ? undefined : likelyMeant(id, known)
    return meant === undefined ? id : `${id} (did you mean ${meant}?)`
  })
  const lacking = folder === undefined ? 'this suite does not have (a typo, or a case that left the suite)' : `the vectors under ${folder} do not have (a typo, or a case that left the folder)`
  return `the baseline lists ${plural(ids.length, 'case id')} ${lacking}: ${shortened(named.join(', '), 300)}`
}

/** The ids the baseline lists that are not among `caseIds`. */
export function idsNotIn(baseline: Baseline, caseIds: ReadonlySet<string>): string[] {
  return baseline.failures.map((entry) => entry.id).filter((id) => !caseIds.has(id))
}

/** The ids the baseline lists that the run's cases do not have; none when it was written for other cases (writtenForRunCases). */
function idsNotInRun(baseline: Baseline, context: BaselineContext): string[] {
  return !writtenForRunCases(baseline, context.suite) || context.caseIds === undefined ? [] : idsNotIn(baseline, context.caseIds)
}

/** Sorts each outcome of a run against the baseline of the same adapter. */
export function compareWithBaseline(outcomes: readonly CaseOutcome[], baseline: Baseline, context: BaselineContext): BaselineVerdict {
  const listed = new Set(baseline.failures.map((entry) => entry.id))
  const statusOf = new Map(outcomes.map((outcome) => [outcome.id, outcome.status]))
  const reasons = Object.fromEntries(baseline.failures.map((entry) => [entry.id, entry.reason]))
  const unknown = idsNotInRun(baseline, context)
  const unknownSet = new Set(unknown)
  const verdict: BaselineVerdict = { source: context.source, newFailures: [], newPasses: [], stillFailing: [], notRun: [], unknownIds: unknown, notes: baselineNotes(baseline, context, unknown), reasons }
  for (const outcome of outcomes) {
    if (outcome.status === 'error' || (outcome.status === 'fail' && !listed.has(outcome.id))) verdict.newFailures.push(outcome.id)
  }
  for (const { id } of baseline.failures) {
    const status = statusOf.get(id)
    if (status === 'pass') verdict.newPasses.push(id)
    else if (status === 'fail') verdict.stillFailing.push(id)
    else if (status !== 'error' && !unknownSet.has(id)) verdict.notRun.push(id)
  }
  return verdict
}

/** Whether the baseline fails the run: any NEW FAIL does; a NEW PASS or a listed id the suite lacks only under strict. */
export function baselineFailsRun(verdict: BaselineVerdict, strict: boolean): boolean {
  return verdict.newFailures.length > 0 || (strict && (verdict.newPasses.length > 0 || verdict.unknownIds.length > 0))
}

/**
 * The reason a written baseline gives a failure nobody has explained yet: the requirements the case
 * exercises (every case names at least one), then what went wrong, briefly. Only cases of the same
 * requirements can then share it, and so one anchor.
 */
function observedReason(outcome: CaseOutcome, requirements: readonly string[]): string {
  const firstLine = (outcome.reason ?? outcome.status).split('\n')[0]!
  return shortened(`${requirements.join(', ')}: ${firstLine}`, 240)
}

/**
 * The baseline of a run's current fails (a case that errs is never newly listed: no baseline excuses an
 * error). Reasons of ids the previous baseline explains are kept; its entries for cases this run did
 * not reach (filtered out or skipped) or that erred in it are carried over, while ids that left the
 * suite are dropped. A run of a folder's vectors (`suite.vectors`) writes the folder's baseline, which
 * names the folder, and holds its ids to the folder's cases as a suite's are held to the suite's.
 * Written over a baseline for other cases (writtenForRunCases), a run keeps every entry it did not
 * reach, and the cases that baseline was written for. Entries are grouped by reason, in suite order.
 */
export function currentBaseline(options: {
  adapter: string
  suite: SuiteIdentity
  outcomes: readonly CaseOutcome[]
  /** Every case of the suite, in suite order. */
  suiteCases: readonly { id: string; requirements: readonly string[] }[]
  previous?: Baseline
}): Baseline {
  const { adapter, suite, outcomes, suiteCases, previous } = options
  const previousReason = new Map(previous?.failures.map((entry) => [entry.id, entry.reason]))
  const reached = new Map(outcomes.filter((outcome) => outcome.status !== 'skip').map((outcome) => [outcome.id, outcome]))
  const reasonOf = new Map<string, string>()
  for (const { id, requirements } of suiteCases) {
    const outcome = reached.get(id)
    if (outcome?.status === 'fail') reasonOf.set(id, previousReason.get(id) ?? observedReason(outcome, requirements))
    // An error says nothing of the answer: a listed case that errs keeps its entry and reason, as one
    // not reached does, for the next clean run to decide (a flaky timeout must not lose a reason).
    else if ((outcome === undefined || outcome.status === 'error') && previousReason.has(id)) reasonOf.set(id, previousReason.get(id)!)
  }
  const overOtherCases = previous !== undefined && !writtenForRunCases(previous, suite)
  if (overOtherCases) {
    const ran = new Set(suiteCases.map((vector) => vector.id))
    for (const entry of previous.failures) if (!ran.has(entry.id)) reasonOf.set(entry.id, entry.reason)
  }
  const groups = new Map<string, string[]>()
  for (const [id, reason] of reasonOf) groups.set(reason, [...(groups.get(reason) ?? []), id])
  const failures = [...groups].flatMap(([reason, ids]) => ids.map((id) => ({ id, reason })))
  const against = overOtherCases ? previous : { suiteVersion: suite.version, suiteHash: suite.contentHash, vectors: suite.vectors === undefined ? undefined : folderNameOf(suite.vectors) }
  return {
    adapter,
    ...(against.suiteVersion === undefined ? {} : { suiteVersion: against.suiteVersion }),
    ...(against.suiteHash === undefined ? {} : { suiteHash: against.suiteHash }),
    ...(against.vectors === undefined ? {} : { vectors: against.vectors }),
    failures,
  }
}

/** An anchor name for a shared reason: its leading tag (`U4:` gives `U4`, `TURN-8, TURN-9:` `TURN-8`) or a running number. */
function anchorName(reason: string, used: Set<string>): string {
  const tag = /^([A-Za-z][A-Za-z0-9-]{0,30})[:,\s]/.exec(reason)?.[1]
  let name = tag ?? `reason-${used.size + 1}`
  for (let suffix = 2; used.has(name); suffix += 1) name = `${tag ?? 'reason'}-${suffix}`
  used.add(name)
  return name
}

/**
 * The anchor each reason carries in a baseline file's text (`reason: &rev "…"`), so that rewriting the
 * file keeps the names its author gave them; an unreadable text gives none.
 */
export function reasonAnchors(text: string): Map<string, string> {
  const anchors = new Map<string, string>()
  const document = parseDocument(text)
  visit(document, {
    Scalar(_key, node) {
      if (node.anchor !== undefined && typeof node.value === 'string' && !anchors.has(node.value)) anchors.set(node.value, node.anchor)
    },
  })
  return anchors
}

/** YAML in which a reason shared by several cases is written once and referred to by an alias, named as in `anchors` where it has a name. */
function baselineYaml(baseline: Baseline, anchors: ReadonlyMap<string, string>): string {
  const document = new Document(baseline)
  document.commentBefore = [
    ` Known failures of ${baseline.adapter} against dsh-session-conformance (see the README, "Gating a fork's CI").`,
    ' Each reason says which rule of spec/ the implementation departs from. Rewritten by',
    ' `dsh-conformance run --write-baseline`, which keeps the reasons of cases that still fail.',
  ].join('\n')
  const failures = document.get('failures', true)
  const firstNode = new Map<string, Scalar>()
  // The names kept from the file written over are taken already: a new name must not repeat one.
  const used = new Set<string>(anchors.values())
  if (isSeq(failures)) {
    for (const item of failures.items) {
      if (!isMap(item)) continue
      const node = item.get('reason', true)
      if (!isScalar(node) || typeof node.value !== 'string') continue
      const first = firstNode.get(node.value)
      if (first === undefined) firstNode.set(node.value, node)
      else item.set('reason', document.createAlias(first, first.anchor ?? anchors.get(node.value) ?? anchorName(node.value, used)))
    }
  }
  return document.toString({ lineWidth: 110 })
}

/** The baseline as file text: JSON when the path ends in .json, YAML otherwise, with the anchor names of `anchors` (reasonAnchors). */
export function formatBaseline(baseline: Baseline, path: string, anchors: ReadonlyMap<string, string> = new Map()): string {
  return path.endsWith('.json') ? `${JSON.stringify(baseline, null, 2)}\n` : baselineYaml(baseline, anchors)
}
