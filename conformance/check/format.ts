// The check report for people (text, printed file by file: a headline per file, then one line per
// finding in the `file:line:` form editors link to; a control character from a log or a file name shown
// as its \u escape, so that no value can forge a line or hide one) and for programs (json: one document
// at the end).
import type { Diagnostic, FileReport } from './check-file.ts'
import type { CheckReport, CheckUncheckedFolder } from '../../generated/types/index.ts'
import { plural, printable } from '../wording.ts'

export interface Summary {
  files: number
  valid: number
  invalid: number
  known: number
  refused: number
  unchecked: number
  uncheckedFolders: number
}

/** The counts of a run from the status of each file checked. */
export function summarize(statuses: readonly FileReport['status'][], folders: readonly CheckUncheckedFolder[]): Summary {
  const count = (status: FileReport['status']): number => statuses.filter(each => each === status).length
  return { files: statuses.length, valid: count('valid'), invalid: count('invalid'), known: count('known'), refused: count('refused'), unchecked: count('unchecked'), uncheckedFolders: folders.length }
}

/**
 * 0 every file valid (or known), 1 some file invalid, 2 some file refused (this reader cannot read it)
 * or unchecked (unreadable, or past a limit), or some folder (one that holds no log checks nothing,
 * which a gate must not pass).
 */
export function exitCodeOf(summary: Summary): number {
  if (summary.refused > 0 || summary.unchecked > 0 || summary.uncheckedFolders > 0) return 2
  return summary.invalid > 0 ? 1 : 0
}

function notices(report: FileReport): number {
  return report.diagnostics.filter(diagnostic => diagnostic.severity === 'notice').length
}

/** The writer's MUSTs broken (check --writer): errors a headline counts. */
function writerErrors(report: FileReport): number {
  return report.diagnostics.filter(diagnostic => diagnostic.severity === 'error' && diagnostic.code.startsWith('WRITER_')).length
}

/** The writer's errors and, under --strict, the notices: what else a headline counts. */
function otherFindings(report: FileReport, strict: boolean): string[] {
  const writer = writerErrors(report)
  const noticed = strict ? notices(report) : 0
  return [...(writer === 0 ? [] : [plural(writer, 'writer error')]), ...(noticed === 0 ? [] : [`${plural(noticed, 'notice')} (--strict)`])]
}

function headline(report: FileReport, strict: boolean): string {
  const outcome = report.outcome
  const file = printable(report.file)
  // The outcome's own finding decides: a layout fault (open) comes before the artifact's refusal.
  const refusal = outcome.verdict === 'rejected' && report.diagnostics.some(diagnostic => diagnostic.severity === 'refusal' && diagnostic.code === outcome.code)
  const status = report.status === 'known' ? `known ${refusal ? 'refused' : 'invalid'}` : report.status
  switch (outcome.verdict) {
    case 'unchecked':
      return `${file}: unchecked (${outcome.code})`
    case 'rejected': {
      // FMT-5: a refusal is reported as what it is, never as damage.
      const verdict = refusal
        ? `${outcome.operation} refuses it with ${outcome.code}: the log may be intact, but this reader cannot read it`
        : `${outcome.operation} rejects it with ${outcome.code}`
      // A rejection ends the decoding or the load, so a known one must not read as a clean bill.
      const stage = { open: undefined, decodeJsonl: 'decoding', load: 'load' }[outcome.operation]
      // A refusal is no damage (FMT-5): nothing to mend, but a reader that knows the log would see further.
      const toSee = refusal ? 'a reader that can read it would see them' : 'check a mended copy to see them'
      const hidden = report.status === 'known' && stage !== undefined ? [`which hides any later fault of its ${stage} (${toSee})`] : []
      return [`${file}: ${status}, ${verdict}`, ...hidden, ...otherFindings(report, strict)].join(', ')
    }
    case 'accepted': {
      const violations = outcome.relations.length + (outcome.relationsNotListed ?? 0)
      const counts = [plural(outcome.events, 'event'), ...(violations === 0 ? [] : [plural(violations, 'relation violation')]), ...otherFindings(report, strict)]
      const torn = outcome.tornTail === null ? [] : ['recoverable torn tail']
      return `${file}: ${status}, ${[...counts, ...torn].join(', ')}`
    }
  }
}

export function diagnosticLine(file: string, diagnostic: Diagnostic): string {
  const where = diagnostic.line === undefined ? printable(file) : `${printable(file)}:${diagnostic.line}`
  const rule = diagnostic.requirement === undefined ? '' : ` (${diagnostic.requirement})`
  const seq = diagnostic.seq === undefined ? '' : ` at seq ${diagnostic.seq}`
  const known = diagnostic.known === undefined ? '' : ` [known: ${printable(diagnostic.known)}]`
  return `${where}: ${diagnostic.severity} ${diagnostic.code}${rule}${seq}: ${printable(diagnostic.message)}${known}`
}

/**
 * One file's report as text: its headline, then one line per finding, at most `maxFindings` of them
 * (0: all) and a count of the rest.
 */
export function formatReport(report: FileReport, maxFindings = 0, strict = false): string {
  const listed = maxFindings === 0 ? report.diagnostics : report.diagnostics.slice(0, maxFindings)
  const unlisted = report.diagnostics.length - listed.length
  const rest = unlisted === 0 ? [] : [`  … ${plural(unlisted, 'more finding')} (--max-findings 0 lists all)`]
  return [headline(report, strict), ...listed.map(diagnostic => `  ${diagnosticLine(report.file, diagnostic)}`), ...rest].join('\n')
}

/** A folder that yielded no file, as a headline and its one finding, like a file's. */
export function formatUncheckedFolder(folder: CheckUncheckedFolder): string {
  const file = printable(folder.folder)
  return `${file}: folder unchecked (${folder.code})\n  ${file}: error ${folder.code}: ${printable(folder.message)}`
}

export function formatSummary(summary: Summary): string {
  const known = summary.known === 0 ? '' : `, ${summary.known} known`
  const refused = summary.refused === 0 ? '' : `, ${summary.refused} refused`
  const folders = summary.uncheckedFolders === 0 ? '' : `; ${plural(summary.uncheckedFolders, 'folder')} unchecked`
  const checked = summary.unchecked === 0 ? plural(summary.files, 'file') : `${summary.files - summary.unchecked} of ${plural(summary.files, 'file')}`
  return `checked ${checked}: ${summary.valid} valid, ${summary.invalid} invalid${refused}${known}, ${summary.unchecked} unchecked${folders}`
}

const CHECK_REPORT_SCHEMA = 'https://dsh-session-conformance.dev/schemas/v0/check-report.schema.json'

/** How the files were judged: the options that change verdicts. */
export interface CheckSettings {
  vocabulary: string
  writerRules: boolean
  strict: boolean
  noLayout: boolean
}

/** The json report, printed a piece at a time. */
export interface JsonReportPrinter {
  file: (report: FileReport) => void
  /** What is known only at the end; `knownUnused` with --known alone. */
  end: (folders: readonly CheckUncheckedFolder[], summary: Summary, knownUnused?: CheckReport['knownUnused']) => void
}

/**
 * The json report (schemas/check-report.schema.json) as one document printed in pieces: the settings,
 * each file's report once it is checked, then the unchecked folders, the --known entries no finding
 * matched, the summary and the exit status. No report is kept after it is printed, and no piece is
 * the whole document: a folder of many logs, each with thousands of findings, fits in memory.
 */
export function jsonReportPrinter(settings: CheckSettings, print: (text: string) => void): JsonReportPrinter {
  // The flags each present only with its option, so that a report says which rules judged its files.
  const flags = { ...(settings.writerRules ? { writerRules: true as const } : {}), ...(settings.strict ? { strict: true as const } : {}), ...(settings.noLayout ? { noLayout: true as const } : {}) }
  const head = { $schema: CHECK_REPORT_SCHEMA, reportVersion: 1, vocabulary: settings.vocabulary, ...flags }
  // Each piece is JSON.stringify's own text, its braces cut off where the document goes on.
  const opening = `${JSON.stringify(head, null, 2).slice(0, -'\n}'.length)},\n  "files": [`
  // A file's report is printed when the next comes, with the comma between them, or at the end.
  let previous: string | undefined
  return {
    file(report) {
      print(previous === undefined ? opening : `${previous},`)
      previous = `    ${JSON.stringify(report, null, 2).replaceAll('\n', '\n    ')}`
    },
    end(folders, summary, knownUnused) {
      const files = previous === undefined ? `${opening}]` : `${previous}\n  ]`
      const tail = { uncheckedFolders: folders, ...(knownUnused === undefined ? {} : { knownUnused }), summary, exitCode: exitCodeOf(summary) }
      print(`${files},\n${JSON.stringify(tail, null, 2).slice('{\n'.length)}`)
    },
  }
}
