// What a run prints for people: per adapter a chapters table, one wrapped line of the requirements
// that failed or errored cases name (each such case counts against every requirement it names,
// whichever part of it differed), the baseline's verdict and the cases to look at; at the end, one line
// per adapter.
import { LISTED_ERROR_NOTE } from './baseline.ts'
import { chapterKeys, claimIsPartial, claimWarnings, passedNote, compareRequirementIds, countBy, countOutcomes, distinctRunNames, failedCount, nameAndVersion, requirementKeys, runFails, testedNothing, type AdapterRun, type Counts } from './results.ts'
import type { CaseOutcome } from './run-case.ts'
import type { VectorCase } from './vector-cases.ts'
import { indentedLines, joinedLines, plural, printable, shortened } from './wording.ts'

const WIDTH = 100
const REASON_LIMIT = 400

function columns(label: string, counts: Counts): string {
  const cells = [counts.pass, counts.fail, counts.error, counts.skip].map((count) => String(count).padStart(8))
  return `  ${label.padEnd(26)}${cells.join('')}`
}

/** Items joined by ", " into lines of at most WIDTH characters, each starting with `indent`. */
export function wrapped(items: readonly string[], indent: string): string[] {
  const lines: string[] = []
  let line = indent
  items.forEach((item, index) => {
    const next = line === indent ? `${line}${item}` : `${line}, ${item}`
    // A line that another follows ends with a comma, which must fit too.
    const room = index === items.length - 1 ? WIDTH : WIDTH - 1
    if (next.length > room && line !== indent) {
      lines.push(`${line},`)
      line = `${indent}${item}`
    } else line = next
  })
  if (line !== indent) lines.push(line)
  return lines
}

const firstLine = (text: string): string => text.split('\n')[0]!

/** A case's reason: its first line, the headline (the reports hold the rest). */
function oneLine(text: string | undefined): string {
  return printable(shortened(firstLine(text ?? ''), REASON_LIMIT))
}

/** A baseline's reason, written by a person and perhaps over several lines: all of it, on one line. */
function listedReason(text: string | undefined): string {
  return printable(shortened(joinedLines(text ?? ''), REASON_LIMIT))
}

function requirementLines(run: AdapterRun, cases: readonly VectorCase[]): string[] {
  const byRequirement = countBy(run.outcomes, requirementKeys(cases))
  const failing = [...byRequirement]
    .filter(([, counts]) => failedCount(counts) > 0)
    .sort(([left], [right]) => compareRequirementIds(left, right))
    .map(([id, counts]) => `${id} ${failedCount(counts)}/${counts.pass + counts.fail + counts.error + counts.skip}`)
  if (failing.length === 0) return []
  return [`  requirements named by failed or errored cases (${failing.length} of ${byRequirement.size}; (failed + errors)/cases naming each):`, ...wrapped(failing, '    ')]
}

/** A case as a failure line names it: its id, and where to read it (its file and rules). */
function caseNamed(id: string, caseOf: ReadonlyMap<string, VectorCase>): string {
  const vector = caseOf.get(id)
  return vector === undefined ? id : `${id} (${printable(vector.file)}; ${vector.requirements.join(', ')})`
}

/** Whether oneLine leaves out part of a reason (a stack or traceback, the end of a long line); line ends do not count. */
function isCut(reason: string | undefined): boolean {
  if (reason === undefined) return false
  const line = firstLine(reason)
  return line.length > REASON_LIMIT || reason.trimEnd() !== line.trimEnd()
}

/** Said once, under the problems, when a reason shown was cut: where to read the rest. */
const CUT_REASON_HINT = '  (a reason cut here is whole in the JSON report, with any stack or traceback: --report json=PATH)'

const failed = (outcome: CaseOutcome): boolean => outcome.status === 'fail' || outcome.status === 'error'

/** The failures and errors whose reasons the summary shows, in run order: all of them, or with a baseline the NEW FAILs. */
function shownFailures(run: AdapterRun): CaseOutcome[] {
  if (run.baseline === undefined) return run.outcomes.filter(failed)
  const newFailures = new Set(run.baseline.newFailures)
  return run.outcomes.filter((outcome) => newFailures.has(outcome.id))
}

/** The hint, when a reason the summary shows was cut. */
function cutReasonLines(run: AdapterRun): string[] {
  return shownFailures(run).some((outcome) => isCut(outcome.reason)) || isCut(run.stopError) ? [CUT_REASON_HINT] : []
}

function problemLines(run: AdapterRun, cases: readonly VectorCase[]): string[] {
  const verdict = run.baseline
  const caseOf = new Map(cases.map((vector) => [vector.id, vector]))
  if (verdict === undefined) {
    return shownFailures(run).map((outcome) => `  ${outcome.status.toUpperCase()} ${caseNamed(outcome.id, caseOf)}: ${oneLine(outcome.reason)}`)
  }
  return [
    `  baseline ${verdict.source}: ${plural(verdict.stillFailing.length, 'known failure still fails', 'known failures still fail')}, ${verdict.newFailures.length} NEW FAIL, ${verdict.newPasses.length} NEW PASS` +
      (verdict.notRun.length > 0 ? `, ${plural(verdict.notRun.length, 'listed case')} not run` : ''),
    ...verdict.notes.map((note) => `  note: ${note}`),
    ...shownFailures(run).map((outcome) => {
      const listed = outcome.status === 'error' && verdict.reasons[outcome.id] !== undefined ? `${LISTED_ERROR_NOTE}: ` : ''
      return `  NEW FAIL ${caseNamed(outcome.id, caseOf)}: ${listed}${oneLine(outcome.reason)}`
    }),
    ...verdict.newPasses.map((id) => `  NEW PASS ${id} (listed as: ${listedReason(verdict.reasons[id])})`),
  ]
}

function claimLines(run: AdapterRun, cases: readonly VectorCase[]): string[] {
  return claimWarnings(run, cases).map((warning) => `  warning: ${warning}`)
}

function totalsLine(counts: Counts, run: AdapterRun): string {
  const line = `${counts.pass} passed, ${counts.fail} failed, ${counts.error} ${counts.error === 1 ? 'error' : 'errors'}, ${counts.skip} skipped`
  const known = run.baseline?.stillFailing.length ?? 0
  return known > 0 ? `${line} (${plural(known, 'known failure')} in the baseline)` : line
}

/** The summary of one adapter's run. */
export function adapterSummary(run: AdapterRun, cases: readonly VectorCase[]): string {
  // The reason quotes the adapter: its lines escaped, each after the first indented (run prints its
  // stderr's last lines apart).
  if (run.adapter === undefined) return `${printable(run.label)}: could not be started: ${indentedLines(run.startError ?? '')}`
  const [title, language] = [nameAndVersion(run.adapter), run.adapter.language].map(printable)
  const profiles = run.adapter.profiles
  const byChapter = countBy(run.outcomes, chapterKeys(cases))
  const total = countOutcomes(run.outcomes)
  return [
    `${title} (${language}; profiles: ${profiles.join(', ')})`,
    `  ${'chapter'.padEnd(26)}${['passed', 'failed', 'errors', 'skipped'].map((word) => word.padStart(8)).join('')}`,
    ...[...byChapter.keys()].sort().map((chapter) => columns(chapter, byChapter.get(chapter)!)),
    columns('total', total),
    ...requirementLines(run, cases),
    ...claimLines(run, cases),
    ...problemLines(run, cases),
    ...(run.stopError === undefined ? [] : [`  ERROR after the last case: the adapter broke the protocol: ${oneLine(run.stopError)}`]),
    ...cutReasonLines(run),
    totalsLine(total, run),
  ].join('\n')
}

/** A run's verdict; a run that fails only by what --strict-baseline refuses says so. */
function verdictOf(run: AdapterRun, strictBaseline: boolean): string {
  if (run.startError !== undefined) return 'not started'
  const baseline = run.baseline
  if (!runFails(run, strictBaseline)) return `passed${passedNote(baseline !== undefined, claimIsPartial(run.outcomes))}`
  if (testedNothing(run)) return 'FAILED (no case ran)'
  if (baseline === undefined || baseline.newFailures.length > 0 || run.stopError !== undefined) return 'FAILED'
  const stale = [baseline.newPasses.length > 0 ? 'NEW PASS' : '', baseline.unknownIds.length > 0 ? 'listed ids no case has' : ''].filter(Boolean)
  return `FAILED (${stale.join(' and ')} under --strict-baseline)`
}

/** One line per adapter, for the end of a run: its counts and its verdict. */
export function overallSummary(runs: readonly AdapterRun[], strictBaseline: boolean): string {
  const names = distinctRunNames(runs).map(printable)
  // A name longer than the column (a long --adapter-cmd) widens it, so that the counts stay aligned.
  const width = Math.max(32, ...names.map((name) => name.length + 2))
  const header = `${'adapter'.padEnd(width)}${['passed', 'failed', 'errors', 'skipped', 'NEW FAIL', 'NEW PASS'].map((word) => word.padStart(9)).join('')}  verdict`
  const rows = runs.map((run, index) => {
    const counts = countOutcomes(run.outcomes)
    const baseline = run.baseline
    const cells = [counts.pass, counts.fail, counts.error, counts.skip]
      .map(String)
      .concat(baseline === undefined ? ['-', '-'] : [String(baseline.newFailures.length), String(baseline.newPasses.length)])
    return `${names[index]!.padEnd(width)}${cells.map((cell) => cell.padStart(9)).join('')}  ${verdictOf(run, strictBaseline)}`
  })
  return [header, ...rows].join('\n')
}
