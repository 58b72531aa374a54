// The JUnit XML report, for any CI: one <testsuite> per adapter and chapter, one <testcase> per case.
// A fail is a <failure>, an error an <error>, a skip a <skipped/>; a fail the baseline lists is a
// <skipped/> that says so (as pytest writes an expected failure), never a pass. A NEW PASS is a
// <failure> under --strict-baseline and a pass with a note otherwise. What fails an adapter's run as a
// whole (it could not start, broke the protocol at stop, tested nothing, or under --strict-baseline its
// baseline lists ids the suite does not have) is a suite of one test.
import type { RunReport, RunReportAdapterRun, RunReportCase } from '../../generated/types/index.ts'
import { idsNotInRunText, LISTED_ERROR_NOTE } from '../baseline.ts'
import { distinctRunNames, testedNothingText } from '../results.ts'
import { suiteTitle } from '../suite-identity.ts'
import { joinedLines, printable, printableOutput, shortened } from '../wording.ts'

/** Characters XML 1.0 cannot hold at all (controls, lone surrogates, U+FFFE/U+FFFF) as \uXXXX text, and markup escaped. */
function xmlEscaped(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
}

/**
 * Text as an element's content: line feeds and tabs kept; every other control, a carriage return
 * included (a viewer would start a line there), and the bidirectional and other format characters
 * escaped as on a terminal (printableOutput, which makes a CRLF a line feed).
 */
function xmlText(text: string): string {
  return xmlEscaped(printableOutput(text))
}

/** Text as an attribute: its tabs and line ends kept exactly, as character references; the rest as printable shows it. */
function xmlAttribute(text: string): string {
  return xmlEscaped(text.replace(/[^\t\n\r]+/g, printable)).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;')
}

function attributes(values: Record<string, string | number>): string {
  return Object.entries(values).map(([name, value]) => ` ${name}="${xmlAttribute(String(value))}"`).join('')
}

function seconds(ms: number | undefined): string {
  return ((ms ?? 0) / 1000).toFixed(3)
}

function firstLine(text: string | undefined): string {
  const line = (text ?? '').split('\n')[0]!
  return shortened(line, 300)
}

/** A baseline's reason in a message: its lines joined, cut as a reason's first line is. */
function listedReason(entry: RunReportCase): string {
  return shortened(joinedLines(entry.baselineReason ?? ''), 300)
}

type Verdict = { element: 'failure' | 'error' | 'skipped'; type: string; message: string; body?: string } | { element: 'pass'; note?: string }

function details(entry: RunReportCase): string {
  const lines = [entry.reason ?? '', `requirements: ${entry.requirements.join(', ')}`]
  if (entry.diff !== undefined) {
    lines.push(`at ${entry.diff.path}: expected ${entry.diff.expected}, actual ${entry.diff.actual}`)
    if (entry.diff.divergingSeq !== undefined) lines.push(`logs diverge at seq ${entry.diff.divergingSeq}`)
  }
  return lines.join('\n')
}

function verdictOf(entry: RunReportCase, strictBaseline: boolean): Verdict {
  if (entry.status === 'skip') return { element: 'skipped', type: 'skip', message: entry.reason ?? 'skipped' }
  if (entry.baseline === 'known-failure') {
    return { element: 'skipped', type: 'known-failure', message: `known ${entry.status} (baseline): ${listedReason(entry)}`, body: details(entry) }
  }
  if (entry.baseline === 'new-pass') {
    const message = `NEW PASS: the baseline lists this case (${listedReason(entry)}); remove it from the baseline`
    return strictBaseline ? { element: 'failure', type: 'new-pass', message } : { element: 'pass', note: message }
  }
  const listed = entry.status === 'error' && entry.baselineReason !== undefined ? ` (${LISTED_ERROR_NOTE})` : ''
  const prefix = entry.baseline === 'new-fail' ? `NEW FAIL${listed}: ` : ''
  if (entry.status === 'fail') return { element: 'failure', type: entry.unsupported === true ? 'unsupported' : 'fail', message: `${prefix}${firstLine(entry.reason)}`, body: details(entry) }
  if (entry.status === 'error') return { element: 'error', type: 'error', message: `${prefix}${firstLine(entry.reason)}`, body: details(entry) }
  return { element: 'pass' }
}

function testcase(classname: string, entry: RunReportCase, strictBaseline: boolean): { xml: string; verdict: Verdict } {
  const verdict = verdictOf(entry, strictBaseline)
  const open = `    <testcase${attributes({ classname, name: entry.id, time: seconds(entry.durationMs) })}`
  if (verdict.element === 'pass') {
    return { verdict, xml: verdict.note === undefined ? `${open}/>` : `${open}>\n      <system-out>${xmlText(verdict.note)}</system-out>\n    </testcase>` }
  }
  const body = verdict.body === undefined ? '/>' : `>${xmlText(verdict.body)}</${verdict.element}>`
  return { verdict, xml: `${open}>\n      <${verdict.element}${attributes({ type: verdict.type, message: verdict.message })}${body}\n    </testcase>` }
}

interface SuiteXml {
  xml: string
  counts: { tests: number; failures: number; errors: number; skipped: number; time: number }
}

function properties(report: RunReport, run: RunReportAdapterRun): string {
  const values: Record<string, string> = {
    'suite.version': report.suite.version,
    'suite.contentHash': report.suite.contentHash,
    ...(report.suite.vectors === undefined ? {} : { 'suite.vectors': report.suite.vectors }),
    'adapter.name': run.adapter?.name ?? run.label,
    'adapter.version': run.adapter?.version ?? 'unknown',
    'adapter.language': run.adapter?.language ?? 'unknown',
  }
  if (run.baseline !== undefined) values['baseline'] = run.baseline.source
  const lines = Object.entries(values).map(([name, value]) => `      <property${attributes({ name, value })}/>`)
  return `    <properties>\n${lines.join('\n')}\n    </properties>`
}

/**
 * A test's class: the run's name, its dots made underscores, then `.` and the part of the run (a
 * chapter): Jenkins reads the text before a classname's last dot as its package, and a version's dots
 * would split the run's name there.
 */
function classnameOf(runName: string, part: string): string {
  return `${runName.replaceAll('.', '_')}.${part.replaceAll('.', '_')}`
}

function testsuite(report: RunReport, run: RunReportAdapterRun, runName: string, name: string, entries: readonly RunReportCase[]): SuiteXml {
  const classname = classnameOf(runName, name)
  const cases = entries.map((entry) => testcase(classname, entry, report.strictBaseline))
  const counts = {
    tests: cases.length,
    failures: cases.filter((item) => item.verdict.element === 'failure').length,
    errors: cases.filter((item) => item.verdict.element === 'error').length,
    skipped: cases.filter((item) => item.verdict.element === 'skipped').length,
    time: entries.reduce((sum, entry) => sum + (entry.durationMs ?? 0), 0),
  }
  const head = `  <testsuite${attributes({ name: `${runName} ${name}`, ...counts, time: seconds(counts.time), timestamp: report.startedAt.replace(/\.\d+Z$/, '') })}>`
  return { counts, xml: [head, properties(report, run), ...cases.map((item) => item.xml), '  </testsuite>'].join('\n') }
}

/** What fails an adapter's run as a whole: the part of the run it is shown as, its test and its element. */
const RUN_FAILURES = {
  start: { part: 'start', test: 'adapter start', element: 'error', withStderr: true },
  stop: { part: 'stop', test: 'adapter stop', element: 'error', withStderr: true },
  'tested-nothing': { part: 'run', test: 'no case ran', element: 'failure', withStderr: false },
  'stale-baseline': { part: 'baseline', test: 'the baseline lists only cases of this suite', element: 'failure', withStderr: false },
} as const

/**
 * A failure of the adapter's run as a whole, as one suite with one test, so CI shows why: the adapter
 * could not start or broke the protocol after its last reply (errors), it tested nothing (every
 * selected case was skipped, or it was given none), or under --strict-baseline its baseline lists ids
 * the suite does not have (failures).
 */
function runFailure(report: RunReport, run: RunReportAdapterRun, runName: string, kind: keyof typeof RUN_FAILURES, message: string): SuiteXml {
  const { part, test: name, element, withStderr } = RUN_FAILURES[kind]
  const suiteName = kind === 'start' ? runName : `${runName} ${part}`
  const counts = { tests: 1, failures: element === 'failure' ? 1 : 0, errors: element === 'error' ? 1 : 0, skipped: 0, time: 0 }
  // A failure to start or stop also shows what the adapter last wrote to stderr, where a crash's cause is.
  const body = !withStderr || run.stderrTail === undefined ? message : `${message}\n--- the last lines of the adapter's stderr ---\n${run.stderrTail}`
  const xml = [
    `  <testsuite${attributes({ name: suiteName, ...counts, time: seconds(0), timestamp: report.startedAt.replace(/\.\d+Z$/, '') })}>`,
    properties(report, run),
    `    <testcase${attributes({ classname: classnameOf(runName, part), name, time: seconds(0) })}>`,
    `      <${element}${attributes({ type: kind, message: firstLine(message) })}>${xmlText(body)}</${element}>`,
    '    </testcase>',
    '  </testsuite>',
  ].join('\n')
  return { counts, xml }
}

/**
 * Lines of warning and notes as the first suite's output, where a CI page shows them: the run's, then
 * an adapter's (the claims its run did not back, results.ts; its baseline's notes). A suite holds one
 * system-out: lines given for a suite that has one are put at its start.
 */
function withOutput(suites: SuiteXml[], lines: readonly string[]): SuiteXml[] {
  if (lines.length === 0 || suites.length === 0) return suites
  const [first, ...rest] = suites
  const text = xmlText(lines.join('\n'))
  // The suite's own output is indented as its testcases, a testcase's (a NEW PASS note) deeper.
  const suiteOutput = '\n    <system-out>'
  // Replacer functions: a replacement string would read `$&` or `` $` `` in the text (an adapter's
  // name, a baseline's id) as patterns, pasting the matched or preceding XML into the report.
  const xml = first!.xml.includes(suiteOutput)
    ? first!.xml.replace(suiteOutput, () => `${suiteOutput}${text}\n`)
    : first!.xml.replace(/ {2}<\/testsuite>$/, () => `    <system-out>${text}</system-out>\n  </testsuite>`)
  return [{ ...first!, xml }, ...rest]
}

function suitesOf(report: RunReport, run: RunReportAdapterRun, runName: string): SuiteXml[] {
  if (run.adapter === null) return [runFailure(report, run, runName, 'start', run.startError ?? '')]
  const chapters = [...new Set(run.cases.map((entry) => entry.chapter))].sort()
  const suites = chapters.map((chapter) => testsuite(report, run, runName, chapter, run.cases.filter((entry) => entry.chapter === chapter)))
  // From the totals, as the run's `passed` is: they count every outcome, its cases only the suite's.
  const { pass, fail, error, skip } = run.totals
  const testedNothing = pass + fail + error === 0
  const failures = [
    ...(testedNothing ? [runFailure(report, run, runName, 'tested-nothing', testedNothingText(skip))] : []),
    ...(report.strictBaseline && (run.baseline?.unknownIds.length ?? 0) > 0 ? [runFailure(report, run, runName, 'stale-baseline', `under --strict-baseline, ${idsNotInRunText(run.baseline!.unknownIds, [], report.suite.vectors)}`)] : []),
    ...(run.stopError === undefined ? [] : [runFailure(report, run, runName, 'stop', run.stopError)]),
  ]
  const output = [...(run.warnings ?? []).map((warning) => `warning: ${warning}`), ...(run.baseline?.notes ?? []).map((note) => `note: ${note}`)]
  return withOutput([...suites, ...failures], output)
}

export function junitReport(report: RunReport): string {
  const names = distinctRunNames(report.runs)
  const suites = withOutput(report.runs.flatMap((run, index) => suitesOf(report, run, names[index]!)), (report.warnings ?? []).map((warning) => `warning: ${warning}`))
  const total = (key: 'tests' | 'failures' | 'errors'): number => suites.reduce((sum, suite) => sum + suite.counts[key], 0)
  // No `skipped` here: the JUnit schema Jenkins' xunit plugin checks against allows it on a testsuite
  // only, and drops a file whose root has it.
  const head = `<testsuites${attributes({
    name: `${suiteTitle(report.suite)} (${report.suite.contentHash})`,
    tests: total('tests'),
    failures: total('failures'),
    errors: total('errors'),
    time: seconds(report.durationMs),
  })}>`
  return ['<?xml version="1.0" encoding="UTF-8"?>', head, ...suites.map((suite) => suite.xml), '</testsuites>', ''].join('\n')
}
