// `dsh-conformance check PATH...`: checks stored session logs and prints the report; returns the exit
// status (see CHECK_USAGE).
import { checkFile, encodingOf, type FileReport } from './check-file.ts'
import { exitCodeOf, formatReport, formatSummary, formatUncheckedFolder, jsonReportPrinter, summarize } from './format.ts'
import { entriesMatchingUnchecked, knownMatchers, readKnownFindings, withKnownFindings, type CheckKnownFinding } from './known-findings.ts'
import { CHECK_USAGE, parseCheckOptions } from './options.ts'
import { RequirementIndex } from './requirements.ts'
import { findArtifacts } from './walk.ts'
import { errorMessage, printable } from '../wording.ts'
import type { CheckUncheckedFolder } from '../../generated/types/index.ts'

function unreadable(path: string, message: string): FileReport {
  return {
    file: path,
    encoding: encodingOf(path),
    status: 'unchecked',
    outcome: { verdict: 'unchecked', code: 'CHECK_IO_ERROR' },
    diagnostics: [{ severity: 'error', code: 'CHECK_IO_ERROR', message }],
  }
}

/** Why a `--known` entry matched no finding of a checked file, as its warning says. */
function unusedWhy(matchedUnchecked: boolean): string {
  if (matchedUnchecked) return 'matched only findings of unchecked files or folders, which --known never accepts: what was not checked fails the run until it is'
  return 'matched no finding of a checked file: mended, or a typo (its files glob is matched against the names as printed above)'
}

// `check ... | head`, a reader that stops reading, ends quietly: cli.ts handles that for every command.
export function runCheck(args: readonly string[]): number {
  if (args.includes('--help')) {
    console.log(CHECK_USAGE)
    return 0
  }
  const options = parseCheckOptions(args)
  if ('error' in options) {
    console.error(`${options.error}\ndsh-conformance check --help lists its options`)
    return 2
  }
  let known: CheckKnownFinding[] = []
  try {
    known = options.known === undefined ? [] : readKnownFindings(options.known)
  } catch (error) {
    // It quotes the file (its path, its members): one line, escaped, or it could forge a verdict line.
    console.error(printable(errorMessage(error)))
    return 2
  }
  const matchers = knownMatchers(known)
  const used = new Set<number>()
  const matchingUnchecked = new Set<number>()
  const requirements = new RequirementIndex()
  const settings = { vocabulary: options.vocabulary, maxLineBytes: options.maxLineBytes, writer: options.writer, strict: options.strict, noLayout: options.noLayout }
  // Each file is printed once checked, and only its status kept.
  const json = options.format === 'json'
    ? jsonReportPrinter({ vocabulary: options.vocabulary, writerRules: options.writer, strict: options.strict, noLayout: options.noLayout }, text => console.log(text))
    : undefined
  const statuses: FileReport['status'][] = []
  const folders: CheckUncheckedFolder[] = []
  for (const found of findArtifacts(options.paths)) {
    if (found.kind === 'folder') {
      const folder: CheckUncheckedFolder = { folder: found.path, code: 'CHECK_IO_ERROR', message: found.message }
      folders.push(folder)
      for (const index of entriesMatchingUnchecked(unreadable(found.path, found.message), matchers)) matchingUnchecked.add(index)
      if (json === undefined) console.log(formatUncheckedFolder(folder))
      continue
    }
    const checked = found.kind === 'file' ? checkFile(found.path, settings, requirements, found.otherNames) : unreadable(found.path, found.message)
    const report = withKnownFindings(checked, matchers, options.strict, used)
    for (const index of entriesMatchingUnchecked(checked, matchers)) matchingUnchecked.add(index)
    statuses.push(report.status)
    if (json === undefined) console.log(formatReport(report, options.maxFindings, options.strict))
    else json.file(report)
  }
  const knownUnused = known.flatMap((entry, index) => (used.has(index) ? [] : [{ index, files: entry.files, code: entry.code, reason: entry.reason }]))
  for (const entry of knownUnused) console.error(`warning: ${printable(options.known!)}: known[${entry.index}] (files ${printable(entry.files)}, code ${printable(entry.code)}) ${unusedWhy(matchingUnchecked.has(entry.index))}`)
  const summary = summarize(statuses, folders)
  if (json === undefined) console.log(formatSummary(summary))
  else json.end(folders, summary, options.known === undefined ? undefined : knownUnused)
  return exitCodeOf(summary)
}
