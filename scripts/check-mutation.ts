// `npm run check:mutation`: fails when docs/mutation.md or docs/mutation-directives.md is stale, without
// running Stryker. Each report carries the stamp of the inputs it was written from
// (scripts/mutation-inputs.ts), and every directive line the audit cites must still be the line right
// after a `Stryker disable next-line` directive.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { mutationInputsStamp, stampedSha256, type InputsStamp } from './mutation-inputs.ts'
import { DIRECTIVE, isDirectiveLine } from './mutation-report.ts'

const SUMMARY_REPORT = 'docs/mutation.md'
const DIRECTIVES_REPORT = 'docs/mutation-directives.md'
const REFRESH = 'Refresh both reports with `npm run mutation && npm run mutation:directives` '
  + '(up to two hours for both on two cores; docs/maintaining.md, step 4).'

const CITED_LINE = /^\| ([^\s|]+):(\d+) \|/

/** Why a report's stamp is not the inputs' stamp now; empty when it is. */
export function stampProblems(reportPath: string, report: string, stamp: InputsStamp): string[] {
  const stamped = stampedSha256(report)
  if (stamped === undefined) return [`${reportPath} is stale: it has no "- Inputs: sha256 …" line, so it predates the stamp`]
  if (stamped === stamp.sha256) return []
  return [
    `${reportPath} is stale: it was written from inputs with sha256 ${stamped}, and they hash to ${stamp.sha256} now `
      + '(a mutated file, the Stryker or vitest mutation config, the ignorer plugin, the vectors\' mutation suite or the Stryker version changed)',
  ]
}

/**
 * Every `file:line` the directives audit cites, checked against the source: the line before it must be
 * a directive. `readSource` gives a file's text, undefined when there is no such file. Every cited file
 * is a mutated one, so the stamp goes stale first; this names the line that moved.
 */
export function citationProblems(audit: string, readSource: (file: string) => string | undefined): string[] {
  const problems: string[] = []
  audit.split('\n').forEach((row, index) => {
    const cited = CITED_LINE.exec(row)
    if (cited === null) return
    const file = cited[1]!
    const line = Number(cited[2])
    const where = `${DIRECTIVES_REPORT}:${index + 1} cites ${file}:${line}`
    const source = readSource(file)
    if (source === undefined) problems.push(`${where}, a file that does not exist`)
    else if (!isDirectiveLine(source.split('\n')[line - 2] ?? '')) {
      problems.push(`${where}, but line ${line - 1} of ${file} is not a \`${DIRECTIVE}\` directive`)
    }
  })
  return problems
}

export async function mutationReportProblems(root: string): Promise<string[]> {
  const read = (file: string): string | undefined => (existsSync(join(root, file)) ? readFileSync(join(root, file), 'utf8') : undefined)
  const stamp = await mutationInputsStamp(root)
  const [summary, audit] = [read(SUMMARY_REPORT), read(DIRECTIVES_REPORT)]
  const problems = ([[SUMMARY_REPORT, summary], [DIRECTIVES_REPORT, audit]] as const).flatMap(([report, text]) =>
    (text === undefined ? [`${report} does not exist`] : stampProblems(report, text, stamp)))
  return [...problems, ...citationProblems(audit ?? '', read)]
}

async function main(): Promise<void> {
  const problems = await mutationReportProblems(fileURLToPath(new URL('..', import.meta.url)))
  for (const problem of problems) console.error(problem)
  if (problems.length > 0) {
    console.error(REFRESH)
    process.exitCode = 1
  } else console.log(`${SUMMARY_REPORT} and ${DIRECTIVES_REPORT} match their inputs`)
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) await main()
