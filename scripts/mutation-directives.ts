// Audits the Stryker directives of reference/ and writes docs/mutation-directives.md.
//
// A `// Stryker disable next-line M: reason` silences every mutant of mutator M on the next line, and
// Stryker offers nothing finer: `if (c)` mutated to `if (true)` and to `if (false)` are both
// ConditionalExpression at the same place. So a directive written for one equivalent mutant can also
// silence a sibling that the vectors kill. This script runs Stryker once more, on a copy of the project
// whose directives are turned into plain comments, and compares that run with the last
// `npm run mutation` (reports/mutation/mutation.json): for each directive line, which of the mutants it
// silences the vectors kill, and which they do not (those its reason is about). The audit fails when
// that run leaves alive a mutant no directive silences, or a directive silences only killed mutants, or
// none at all (Stryker makes no mutant of some code, a ternary's test among them, so a directive can
// be written for a mutant that never exists, or outlive the code it was written for).
//
// usage: tsx scripts/mutation-directives.ts [--compare WITHOUT_DIRECTIVES.json]
//   (--compare skips the Stryker run and reads a report of an earlier run without directives, and the
//   record of when that run ended beside it, WITHOUT_DIRECTIVES.run.json, when there is one)
import { execFileSync } from 'node:child_process'
import {
  cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { MUTATION_START_STAMP, mutationInputsStamp, type InputsStamp } from './mutation-inputs.ts'
import { DIRECTIVE, MUTATION_REPORT_PATH, isDetected, isDirectiveLine, oneLine, type Mutant, type Report } from './mutation-report.ts'

const root = fileURLToPath(new URL('..', import.meta.url))
const withoutDirectivesPath = join(root, 'reports/mutation/without-directives.json')
const auditPath = join(root, 'docs/mutation-directives.md')

const DIRECTIVE_OFF = '// (directive off for the audit)'

// ---- the run without directives ---------------------------------------------------------------

/** A copy of the tracked files, node_modules linked, with every directive of reference/ turned off. */
function copyWithoutDirectives(): string {
  const copy = mkdtempSync(join(tmpdir(), 'mutation-directives-'))
  const tracked = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' }).split('\0').filter(Boolean)
  for (const file of tracked) {
    mkdirSync(dirname(join(copy, file)), { recursive: true })
    cpSync(join(root, file), join(copy, file))
  }
  symlinkSync(join(root, 'node_modules'), join(copy, 'node_modules'), 'dir')
  for (const name of readdirSync(join(copy, 'reference')).filter(file => file.endsWith('.ts'))) {
    const path = join(copy, 'reference', name)
    writeFileSync(path, readFileSync(path, 'utf8').replaceAll(DIRECTIVE, DIRECTIVE_OFF))
  }
  return copy
}

/** Where the record of when a run without directives ended is kept: beside its report. */
export function runRecordPath(reportPath: string): string {
  return `${reportPath.replace(/\.json$/, '')}.run.json`
}

function runWithoutDirectives(): void {
  const copy = copyWithoutDirectives()
  try {
    const config = join(copy, 'stryker.audit.config.mjs')
    const options = { reporters: ['json', 'progress', 'run-timer'], jsonReporter: { fileName: withoutDirectivesPath } }
    writeFileSync(config, `import base from './stryker.config.mjs'\nexport default { ...base, ...${JSON.stringify(options)} }`)
    execFileSync('npx', ['stryker', 'run', config], { cwd: copy, stdio: 'inherit' })
    // The run-timer reporter (scripts/stryker-plugins.mjs) wrote it into the copy.
    cpSync(join(copy, 'reports/mutation/run.json'), runRecordPath(withoutDirectivesPath))
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
}

// ---- the comparison -----------------------------------------------------------------------------

/**
 * A mutant's identity in both runs: turning a directive into a comment moves no code, but a mutated
 * switch case carries its leading comment in its replacement, so line comments are left out.
 */
function mutantKey(file: string, mutant: Mutant): string {
  const { start, end } = mutant.location
  const replacement = (mutant.replacement ?? '').replace(/\/\/[^\n]*\n?/g, '')
  return `${file}:${start.line}:${start.column}:${end.line}:${end.column}:${mutant.mutatorName}:${replacement}`
}

export interface DirectiveLine {
  where: string
  reason: string
  killed: Mutant[]
  notKilled: Mutant[]
}

export interface Audit {
  lines: DirectiveLine[]
  /** Problems that make the audit fail. */
  problems: string[]
}

function isAlive(mutant: Mutant): boolean {
  return mutant.status === 'Survived' || mutant.status === 'NoCoverage'
}

/**
 * Each mutant ignored with the directives and run without them (one ignored in both runs is the
 * free-text-messages ignorer's, scripts/stryker-plugins.mjs), grouped by its line.
 */
export function auditDirectives(withDirectives: Report, withoutDirectives: Report): Audit {
  const outcome = new Map<string, Mutant>()
  for (const [file, { mutants }] of Object.entries(withoutDirectives.files)) {
    for (const mutant of mutants) outcome.set(mutantKey(file, mutant), mutant)
  }
  const lines = new Map<string, DirectiveLine>()
  const silenced = new Set<string>()
  const problems: string[] = []
  for (const [file, { mutants }] of Object.entries(withDirectives.files)) {
    for (const mutant of mutants.filter(candidate => candidate.status === 'Ignored')) {
      const key = mutantKey(file, mutant)
      const found = outcome.get(key)
      if (found === undefined) problems.push(`a silenced mutant is missing from the run without directives: ${key}`)
      if (found === undefined || found.status === 'Ignored') continue
      silenced.add(key)
      const where = `${file}:${mutant.location.start.line}`
      const line = lines.get(where) ?? { where, reason: mutant.statusReason ?? '', killed: [], notKilled: [] }
      ;(isDetected(found) ? line.killed : line.notKilled).push(found)
      lines.set(where, line)
    }
  }
  for (const [key, mutant] of outcome) {
    if (isAlive(mutant) && !silenced.has(key)) problems.push(`a mutant no directive silences survives the run without directives: ${key}`)
  }
  for (const line of lines.values()) {
    if (line.notKilled.length === 0) problems.push(`a directive silences only mutants the vectors kill: ${line.where} (${line.killed.map(detection).join('; ')})`)
  }
  for (const where of directiveTargets(withDirectives)) {
    if (!lines.has(where)) problems.push(`a directive silences no mutant: ${where} (the line after the directive)`)
  }
  return { lines: [...lines.values()], problems }
}

/** Where each directive of the mutated files points: `file:line` of the line after it. */
function directiveTargets(report: Report): string[] {
  return Object.entries(report.files).flatMap(([file, { source }]) =>
    source.split('\n').flatMap((text, index) => (isDirectiveLine(text) ? [`${file}:${index + 2}`] : [])),
  )
}

function describe(mutant: Mutant): string {
  return `${mutant.mutatorName} at ${mutant.location.start.column} \`${oneLine(mutant.replacement)}\``
}

const CASE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/

/**
 * How a detected mutant was detected: a timeout, which Stryker counts as a kill and which may come of
 * the machine's load alone, or the case that failed (a killed mutant's status reason is the failing
 * case's message, which starts with its id), or else the error that killed it.
 */
function detection(mutant: Mutant): string {
  if (mutant.status === 'Timeout') return `${describe(mutant)} timed out`
  const reason = mutant.statusReason ?? ''
  const failing = reason.split(': ')[0]!
  if (CASE_ID.test(failing)) return `${describe(mutant)} killed by ${failing}`
  return reason === '' ? `${describe(mutant)} killed` : `${describe(mutant)} killed: ${oneLine(reason)}`
}

/**
 * When the run without directives ended, from the run's record. A report without one beside it (written
 * before runs kept one, or copied alone) falls back to the file's modification time, and says so.
 */
export function runEndedText(reportPath: string, record: string | undefined, reportModified: Date): string {
  const iso = (time: Date | string): string => new Date(time).toISOString().replace(/\.\d+Z$/, 'Z')
  if (record !== undefined) return iso((JSON.parse(record) as { ended: string }).ended)
  return `${iso(reportModified)} (the modification time of ${basename(reportPath)}: there is no ${basename(runRecordPath(reportPath))})`
}

/** docs/mutation-directives.md; `inputsLine` is the stamp of the run's inputs (scripts/mutation-inputs.ts). */
export function auditText(lines: readonly DirectiveLine[], runEnded: string, inputsLine: string): string {
  const sorted = [...lines].sort((a, b) => a.where.localeCompare(b.where, 'en', { numeric: true }))
  const killed = lines.reduce((sum, line) => sum + line.killed.length, 0)
  const notKilled = lines.reduce((sum, line) => sum + line.notKilled.length, 0)
  return [
    '# What the Stryker directives of the reference silence',
    '',
    'Generated by `npm run mutation:directives` (scripts/mutation-directives.ts). Do not edit by hand.',
    '',
    'A directive silences every mutant of its mutator on its line, and Stryker has nothing finer (`if (c)`',
    'becomes `if (true)` and `if (false)`, both ConditionalExpression at the same place), so a directive',
    'written for one equivalent mutant may also silence a sibling that the vectors kill. This audit ran',
    'Stryker over a copy of the reference whose directives were plain comments and compared it with the',
    'last `npm run mutation`. Every mutant that run left alive is one a directive silences, for the reason',
    'the directive gives; the score in docs/mutation.md counts neither kind.',
    '',
    `- Run without directives ended: ${runEnded}`,
    inputsLine,
    `- Silenced by directives: ${killed + notKilled} mutants on ${lines.length} lines`,
    `- Not killed by the vectors (equivalent, for the directive's reason): ${notKilled}`,
    `- Killed by the vectors anyway (silenced with an equivalent sibling): ${killed}`,
    '',
    '## Directive lines that silence killed mutants',
    '',
    '| line | killed anyway | not killed (the reason is about these) | reason |',
    '|---|---|---|---|',
    ...sorted
      .filter(line => line.killed.length > 0)
      .map(line => `| ${line.where} | ${line.killed.map(describe).join('; ')} | ${line.notKilled.map(describe).join('; ') || '(none)'} | ${oneLine(line.reason)} |`),
    '',
  ].join('\n')
}

async function main(args: readonly string[]): Promise<void> {
  const compare = args[0] === '--compare' ? args[1] : undefined
  // Stamped before the run, from the inputs the copy is made of; the run with directives it is compared
  // with (npm run mutation) must have started from the same inputs.
  const { line: inputsLine, sha256 } = await mutationInputsStamp(root)
  const withDirectivesStamp = join(root, MUTATION_START_STAMP)
  if (existsSync(withDirectivesStamp) && (JSON.parse(readFileSync(withDirectivesStamp, 'utf8')) as InputsStamp).sha256 !== sha256) {
    // Refused before the hour of Stryker the audit would otherwise spend on runs it cannot compare.
    console.error(`the last \`npm run mutation\` started from other inputs than these (${MUTATION_START_STAMP}): run it first`)
    process.exitCode = 1
    return
  }
  if (compare === undefined) runWithoutDirectives()
  const withDirectives = JSON.parse(readFileSync(MUTATION_REPORT_PATH, 'utf8')) as Report
  const withoutDirectivesReport = compare ?? withoutDirectivesPath
  const withoutDirectives = JSON.parse(readFileSync(withoutDirectivesReport, 'utf8')) as Report
  const { lines, problems } = auditDirectives(withDirectives, withoutDirectives)
  const recordPath = runRecordPath(withoutDirectivesReport)
  const record = existsSync(recordPath) ? readFileSync(recordPath, 'utf8') : undefined
  const runEnded = runEndedText(withoutDirectivesReport, record, statSync(withoutDirectivesReport).mtime)
  if (record === undefined) console.error(`no ${recordPath}: the run's end is taken from the report's modification time`)
  writeFileSync(auditPath, auditText(lines, runEnded, inputsLine))
  console.log(`wrote ${auditPath}`)
  for (const problem of problems) console.error(problem)
  if (problems.length > 0) process.exitCode = 1
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main(process.argv.slice(2))
