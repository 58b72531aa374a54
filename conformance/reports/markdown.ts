// The Markdown report, for CI job summaries ($GITHUB_STEP_SUMMARY and the like): the verdict per
// adapter first, then per adapter its chapters, the requirements failing cases name and the cases to read.
import type { RunReport, RunReportAdapterRun, RunReportCase, RunReportCounts } from '../../generated/types/index.ts'
import { claimIsPartial, compareRequirementIds, nameAndVersion, passedNote, runPlaceSuffixes } from '../results.ts'
import { LISTED_ERROR_NOTE } from '../baseline.ts'
import { suiteTitle } from '../suite-identity.ts'
import { markdownCell, markdownText, plural, printableOutput } from '../wording.ts'

/** Tables stop here; the JSON report has every case. */
const MAX_ROWS = 200

/** Text of the run (adapter output, reasons, names) inside a table cell or a line: see markdownCell. */
function cell(text: string, limit = 300): string {
  return markdownCell(text, limit)
}

function verdictText(run: RunReportAdapterRun): string {
  if (run.adapter === null) return '❌ not started'
  if (!run.passed) return '❌ failed'
  return `✅ passed${passedNote(run.baseline !== undefined, claimIsPartial(run.cases))}`
}

function baselineText(run: RunReportAdapterRun): string {
  const baseline = run.baseline
  if (baseline === undefined) return '—'
  const stale = baseline.unknownIds.length === 0 ? '' : `, ${plural(baseline.unknownIds.length, 'listed id')} no case has`
  return `${baseline.stillFailing.length} known, ${baseline.newFailures.length} NEW FAIL, ${baseline.newPasses.length} NEW PASS${stale}`
}

function overviewTable(report: RunReport, places: readonly string[]): string[] {
  return [
    '| adapter | version | passed | failed | errors | skipped | baseline | verdict |',
    '|---|---|---:|---:|---:|---:|---|---|',
    ...report.runs.map((run, index) => {
      const { pass, fail, error, skip } = run.totals
      return `| ${cell(run.adapter?.name ?? run.label)}${places[index]} | ${cell(run.adapter?.version ?? '—')} | ${pass} | ${fail} | ${error} | ${skip} | ${baselineText(run)} | ${verdictText(run)} |`
    }),
  ]
}

function countsBy(entries: readonly RunReportCase[], keysOf: (entry: RunReportCase) => readonly string[]): Map<string, RunReportCounts> {
  const byKey = new Map<string, RunReportCounts>()
  for (const entry of entries) {
    for (const key of keysOf(entry)) {
      const counts = byKey.get(key) ?? { pass: 0, fail: 0, error: 0, skip: 0 }
      counts[entry.status] += 1
      byKey.set(key, counts)
    }
  }
  return byKey
}

function chapterTable(run: RunReportAdapterRun): string[] {
  const byChapter = countsBy(run.cases, (entry) => [entry.chapter])
  return [
    '<details><summary>By chapter</summary>',
    '',
    '| chapter | passed | failed | errors | skipped |',
    '|---|---:|---:|---:|---:|',
    ...[...byChapter.keys()].sort().map((chapter) => {
      const { pass, fail, error, skip } = byChapter.get(chapter)!
      return `| ${chapter} | ${pass} | ${fail} | ${error} | ${skip} |`
    }),
    '',
    '</details>',
  ]
}

function requirementLine(run: RunReportAdapterRun): string[] {
  const failing = [...countsBy(run.cases, (entry) => entry.requirements)]
    .filter(([, counts]) => counts.fail + counts.error > 0)
    .sort(([left], [right]) => compareRequirementIds(left, right))
    .map(([id, counts]) => `${id} (${counts.fail + counts.error}/${counts.pass + counts.fail + counts.error + counts.skip})`)
  return failing.length === 0 ? [] : [`**Requirements named by failed or errored cases**, (failed + errors)/cases naming each: ${failing.join(', ')}`]
}

function caseTable(title: string, entries: readonly RunReportCase[], describe: (entry: RunReportCase) => string): string[] {
  if (entries.length === 0) return []
  const shown = entries.slice(0, MAX_ROWS)
  const more = entries.length - shown.length
  return [
    `**${title} (${entries.length})**`,
    '',
    '| case | requirements | what happened |',
    '|---|---|---|',
    ...shown.map((entry) => `| \`${entry.id}\` | ${entry.requirements.join(', ')} | ${cell(describe(entry))} |`),
    ...(more > 0 ? [`| … | | ${more} more in a JSON report (\`--report json=PATH\`) |`] : []),
  ]
}

function knownFailures(run: RunReportAdapterRun): string[] {
  const known = run.cases.filter((entry) => entry.baseline === 'known-failure')
  if (known.length === 0) return []
  const byReason = new Map<string, string[]>()
  for (const entry of known) byReason.set(entry.baselineReason ?? '', [...(byReason.get(entry.baselineReason ?? '') ?? []), entry.id])
  const reasons = [...byReason]
  const shown = reasons.slice(0, MAX_ROWS)
  const more = reasons.slice(MAX_ROWS).reduce((sum, [, ids]) => sum + ids.length, 0)
  return [
    `<details><summary>${plural(known.length, 'known failure')} listed in ${cell(run.baseline?.source ?? 'the baseline')}</summary>`,
    '',
    '| reason | cases |',
    '|---|---|',
    ...shown.map(([reason, ids]) => `| ${cell(reason, 600)} | ${ids.map((id) => `\`${id}\``).join(', ')} |`),
    ...(more > 0 ? [`| … | ${plural(more, 'more case')} under ${plural(reasons.length - MAX_ROWS, 'more reason')}, in a JSON report (\`--report json=PATH\`) |`] : []),
    '',
    '</details>',
  ]
}

function problemTables(run: RunReportAdapterRun): string[] {
  const failed = (entry: RunReportCase): boolean => entry.status === 'fail' || entry.status === 'error'
  const reasonOf = (entry: RunReportCase): string =>
    `${entry.status}${entry.status === 'error' && entry.baselineReason !== undefined ? ` (${LISTED_ERROR_NOTE})` : ''}: ${entry.reason ?? ''}`
  if (run.baseline === undefined) return caseTable('Failures and errors', run.cases.filter(failed), reasonOf)
  const newPasses = run.cases.filter((entry) => entry.baseline === 'new-pass')
  const tables = [
    ...caseTable('NEW FAIL', run.cases.filter((entry) => entry.baseline === 'new-fail'), reasonOf),
    ...(newPasses.length > 0 ? [''] : []),
    ...caseTable('NEW PASS', newPasses, (entry) => `listed as: ${entry.baselineReason ?? ''}`),
  ]
  // Each note a paragraph of its own: a line right after a table is read as one more row of it.
  const notes = run.baseline.notes.map((note) => `Note: ${cell(note)}`)
  return [...tables, ...notes.flatMap((note, index) => (index === 0 && tables.length === 0 ? [note] : ['', note]))]
}

/** Lines in a code block: a fence longer than any run of backticks in them, control characters but tabs escaped. */
function codeBlock(text: string): string[] {
  const fence = '`'.repeat(Math.max(2, ...[...text.matchAll(/`+/g)].map((run) => run[0].length)) + 1)
  return [`${fence}text`, printableOutput(text), fence]
}

/** What the adapter last wrote to stderr, kept for a run that failed (where a crash's cause is). */
function stderrBlock(run: RunReportAdapterRun): string[] {
  if (run.stderrTail === undefined) return []
  return ['<details><summary>The last lines of its stderr</summary>', '', ...codeBlock(run.stderrTail), '', '</details>']
}

/** The sections of one adapter's run; `withKnownFailures` false leaves its table of known failures out. */
function runSection(run: RunReportAdapterRun, place: string, withKnownFailures: boolean): string[] {
  if (run.adapter === null) {
    const stderr = stderrBlock(run)
    return [`### ${cell(run.label)}${place}`, '', `Could not be started: ${cell(run.startError ?? '', 2000)}`, ...(stderr.length > 0 ? ['', ...stderr] : [])]
  }
  const { language, profiles } = run.adapter
  const blocks = [
    [`### ${cell(nameAndVersion(run.adapter))}${place} — ${verdictText(run)}`, '', `${cell(language)}; profiles: ${profiles.join(', ')}`],
    chapterTable(run),
    requirementLine(run),
    problemTables(run),
    run.stopError === undefined ? [] : [`After the last case, the adapter broke the protocol: ${cell(run.stopError, 2000)}`],
    (run.warnings ?? []).map((warning) => `Warning: ${cell(warning)}`),
    withKnownFailures ? knownFailures(run) : [],
    stderrBlock(run),
  ].filter((block) => block.length > 0)
  return blocks.flatMap((block, index) => (index === 0 ? block : ['', ...block]))
}

/** GitHub refuses a job summary over 1 MiB: the report stays under it (the JSON report holds everything). */
export const MARKDOWN_MOST_BYTES = 1_000_000

function documentOf(report: RunReport, withKnownFailures: boolean): string {
  const { suite, selection } = report
  const selected = selection.caseCount === suite.caseCount ? `${suite.caseCount} cases` : `${selection.caseCount} of ${suite.caseCount} cases selected`
  // Two runs of one name and version are told apart by their places, as on the console and in JUnit.
  const places = runPlaceSuffixes(report.runs)
  const lines = [
    `## ${markdownText(suiteTitle(suite))}: ${report.passed ? '✅ passed' : '❌ failed'}`,
    '',
    `Suite \`${suite.contentHash}\` (${selected})${report.strictBaseline ? ', strict baseline' : ''}.`,
    '',
    ...(report.warnings ?? []).flatMap((warning) => [`Warning: ${cell(warning, 2000)}`, '']),
    ...overviewTable(report, places),
    ...(withKnownFailures ? [] : ['', '_The tables of known failures are left out to keep this report under 1 MiB: a JSON report (`--report json=PATH`) lists them._']),
    ...report.runs.flatMap((run, index) => ['', ...runSection(run, places[index]!, withKnownFailures)]),
  ]
  return `${lines.join('\n')}\n`
}

/**
 * The first lines of `text` that fit in `most` UTF-8 bytes with the closing note, then the note, after
 * closing the code block and the folded block the cut left open, so that the note shows as text.
 */
function cutToBytes(text: string, most: number): string {
  const note = '\n_The report is cut here to stay under 1 MiB: a JSON report (`--report json=PATH`) holds every case._\n'
  // Room for the closers the cut may need: the longest fence, then a blank line and </details>.
  const lines = text.split('\n')
  const longestFence = lines.reduce((longest, line) => (line.startsWith('```') ? Math.max(longest, line.length) : longest), 0)
  const closers = longestFence + '\n\n</details>\n'.length
  let bytes = Buffer.byteLength(note) + closers
  let kept = 0
  let details = false
  let fence: string | undefined
  while (kept < lines.length && bytes + Buffer.byteLength(lines[kept]!) + 1 <= most) {
    const line = lines[kept]!
    const opening = fence === undefined ? /^`{3,}/.exec(line)?.[0] : undefined
    if (opening !== undefined) fence = opening
    else if (fence !== undefined && line === fence) fence = undefined
    else if (fence === undefined) details = line.startsWith('<details>') || (details && line !== '</details>')
    bytes += Buffer.byteLength(line) + 1
    kept += 1
  }
  // A blank line before </details>: after a table row, GFM would read it as one more row.
  const closing = [...(fence === undefined ? [] : [fence]), ...(details ? ['', '</details>'] : [])]
  return `${[...lines.slice(0, kept), ...closing].join('\n')}\n${note}`
}

/** The report; over MARKDOWN_MOST_BYTES it leaves out the known failures, and if that is not enough, its end. */
export function markdownReport(report: RunReport): string {
  const whole = documentOf(report, true)
  if (Buffer.byteLength(whole) <= MARKDOWN_MOST_BYTES) return whole
  const withoutKnown = documentOf(report, false)
  return Buffer.byteLength(withoutKnown) <= MARKDOWN_MOST_BYTES ? withoutKnown : cutToBytes(withoutKnown, MARKDOWN_MOST_BYTES)
}
