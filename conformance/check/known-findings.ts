// Known findings (`check --known FILE`): findings of stored logs that a CI gate has looked at and
// accepts for now, each with its reason, so that check fails only on a finding nobody has explained.
// An entry matches a finding when its `files` glob matches the whole of the file's name as check prints
// it and its `code` glob the finding's code (`*` any run of characters, `/` included; `?` one). A file
// whose every finding that makes it invalid (or refused: FMT-5) is matched is *known*: listed, and no
// failure of the run. An unchecked file is never known: no verdict was reached, so there is nothing
// to accept.
// schemas/check-known.schema.json gives the file's shape.
//
//   known:
//     - files: 'logs/*/session.jsonl'
//       code: JSONL_HEADER_INVALID
//       reason: our rc8 builds wrote no delegationDepth (fixed in 0.1.1)
import type { CheckKnown, CheckKnownFinding } from '../../generated/types/index.ts'
import { isRecord } from '../../reference/lossless-json.ts'
import { compileGlob, type Glob } from '../filters.ts'
import { NO_LINES, parseYamlText, readGivenFile, refusalOf, unknownMembers, type LineAt } from '../yaml-text.ts'
import type { Diagnostic, FileReport } from './check-file.ts'
import { printable } from '../wording.ts'

export type { CheckKnown, CheckKnownFinding }

const MEMBERS = ['files', 'code', 'reason']

/** Reads a known-findings file; throws an Error naming what is wrong, and where. */
export function readKnownFindings(path: string): CheckKnownFinding[] {
  const { value, lineAt } = parseYamlText(readGivenFile(path, 'known-findings file'), path)
  return knownFindingsFrom(value, path, lineAt).known
}

/** Checks a known-findings file given as a value (as parsed); throws an Error naming `source` and what is wrong. */
export function knownFindingsFrom(document: unknown, source: string, lineAt: LineAt = NO_LINES): CheckKnown {
  const fail = refusalOf('known-findings file', source, lineAt)
  if (!isRecord(document)) return fail('expected a mapping with known')
  const stray = unknownMembers(document, ['known'])
  if (stray !== undefined) fail(`it ${stray.text}`, [], stray.first)
  if (!Array.isArray(document['known'])) return fail('known must be a list of findings', [], 'known')
  const known = document['known'].map((entry: unknown, index): CheckKnownFinding => {
    const at = ['known', index]
    if (!isRecord(entry)) return fail(`known[${index}] must be a mapping with files, code and reason`, at)
    const strayInEntry = unknownMembers(entry, MEMBERS)
    if (strayInEntry !== undefined) fail(`known[${index}] ${strayInEntry.text}`, at, strayInEntry.first)
    for (const key of ['files', 'code']) {
      if (typeof entry[key] !== 'string' || entry[key] === '') fail(`known[${index}] needs ${key}, a glob`, at, key)
    }
    if (typeof entry['reason'] !== 'string' || entry['reason'].trim() === '') fail(`known[${index}] needs a reason`, at, 'reason')
    return entry as unknown as CheckKnownFinding
  })
  return { known }
}

/** The findings that make a file invalid or refused: errors and refusals, and notices under --strict. */
function failing(diagnostic: Diagnostic, strict: boolean): boolean {
  return diagnostic.severity !== 'notice' || strict
}

/** An entry with its globs compiled, and its index in the file, for the warning of an entry that matched nothing. */
export interface KnownMatcher {
  index: number
  reason: string
  files: Glob
  code: Glob
}

export function knownMatchers(known: readonly CheckKnownFinding[]): KnownMatcher[] {
  return known.map((entry, index) => ({ index, reason: entry.reason, files: compileGlob(entry.files), code: compileGlob(entry.code) }))
}

/**
 * The report with each finding an entry matches marked `known` (the first such entry's reason), and its
 * status from the findings left open (statusWithKnown). `used` collects the index of every entry that
 * matched a finding, so that the run can name the ones that matched none.
 */
export function withKnownFindings(report: FileReport, matchers: readonly KnownMatcher[], strict: boolean, used: Set<number>): FileReport {
  if (report.status === 'unchecked') return report
  // The name as printed, its unprintable characters escaped, so that a glob copied from a line of check matches.
  const printed = printable(report.file)
  const forFile = matchers.filter(matcher => matcher.files.test(printed))
  if (forFile.length === 0) return report
  // Each code is matched once: a file may hold thousands of findings of a few codes, a list thousands of entries.
  const byCode = new Map<string, KnownMatcher[]>()
  const matchingOf = (code: string): KnownMatcher[] => {
    const matching = byCode.get(code) ?? forFile.filter(matcher => matcher.code.test(code))
    byCode.set(code, matching)
    return matching
  }
  const diagnostics = report.diagnostics.map(diagnostic => {
    const matching = matchingOf(diagnostic.code)
    for (const matcher of matching) used.add(matcher.index)
    return matching.length === 0 ? diagnostic : { ...diagnostic, known: matching[0]!.reason }
  })
  return { ...report, status: statusWithKnown(report.status, diagnostics, strict), diagnostics }
}

/**
 * The entries that match a finding of an unchecked file, which are not applied (a file that was not
 * checked is never known): the warning of an entry that matched nothing else says so, not "a typo".
 */
export function entriesMatchingUnchecked(report: FileReport, matchers: readonly KnownMatcher[]): number[] {
  if (report.status !== 'unchecked') return []
  return matchers
    .filter(matcher => matcher.files.test(report.file) && report.diagnostics.some(diagnostic => matcher.code.test(diagnostic.code)))
    .map(matcher => matcher.index)
}

/**
 * An invalid or refused file whose every failing finding is known is known. Otherwise a refused file
 * stays refused while its refusal is open (it takes precedence, as check-file.ts gives it), and becomes
 * invalid when only other findings are; an invalid file whose open findings are all refusals (a layout
 * fault accepted, a refusal left) is refused.
 */
function statusWithKnown(status: FileReport['status'], diagnostics: readonly Diagnostic[], strict: boolean): FileReport['status'] {
  if (status !== 'invalid' && status !== 'refused') return status
  const open = diagnostics.filter(diagnostic => failing(diagnostic, strict) && diagnostic.known === undefined)
  if (open.length === 0) return 'known'
  const refusalOpen = open.some(diagnostic => diagnostic.severity === 'refusal')
  if (status === 'refused') return refusalOpen ? 'refused' : 'invalid'
  return open.every(diagnostic => diagnostic.severity === 'refusal') ? 'refused' : 'invalid'
}
