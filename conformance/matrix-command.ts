// `dsh-conformance matrix`: runs every adapter over the selected cases (no baselines: the matrix shows
// behaviour as it is) and writes requirement × implementation as Markdown and/or HTML.
import { fileURLToPath } from 'node:url'
import { adapterRunsFor, stderrBlock } from './adapter-runs.ts'
import type { AdapterSource, CommandOptions } from './cli-options.ts'
import { selectCases, describeFilters, type CaseFilters } from './filters.ts'
import { matrixHtml } from './matrix-html.ts'
import { computeMatrix, matrixMarkdown, STOP_ERROR_SAYING, type Matrix } from './matrix.ts'
import type { AdapterRun } from './results.ts'
import { writeOutputFile } from './reports/write.ts'
import { readSpecCatalog } from './spec-catalog.ts'
import { suiteIdentity } from './suite-identity.ts'
import { loadVectorCases, type VectorCase } from './vector-cases.ts'
import { errorMessage, indentedLines, printable } from './wording.ts'

const specDir = fileURLToPath(new URL('../spec/', import.meta.url))

/**
 * Runs the adapters and computes their matrix; undefined when no case matches the filters. `all` is
 * the suite, or the cases under the folder `vectors`.
 */
export async function buildMatrix(adapters: readonly AdapterSource[], filters: CaseFilters, timeoutMs: number, all: readonly VectorCase[] = loadVectorCases(), vectors?: string): Promise<{ matrix: Matrix; runs: AdapterRun[] } | undefined> {
  const cases = selectCases(all, filters)
  if (cases.length === 0) return undefined
  const runs: AdapterRun[] = []
  for await (const run of adapterRunsFor(adapters, cases, timeoutMs)) runs.push(run)
  const matrix = computeMatrix(readSpecCatalog(specDir).requirements, cases, runs, suiteIdentity(all, vectors))
  return { matrix, runs }
}

/** `all` is the suite, or the cases under --vectors. */
export async function matrixCommand(options: CommandOptions, all: readonly VectorCase[]): Promise<number> {
  const built = await buildMatrix(options.adapters, options.filters, options.timeoutMs, all, options.vectors)
  if (built === undefined) {
    console.error(`no case matches the filters ${describeFilters(options.filters)}`)
    return 2
  }
  const title = 'Compatibility matrix'
  if (options.matrixMarkdown === undefined && options.matrixHtml === undefined) process.stdout.write(matrixMarkdown(built.matrix, { title }))
  const written = [
    ...(options.matrixMarkdown === undefined ? [] : [writeOutput(options.matrixMarkdown, matrixMarkdown(built.matrix, { title }))]),
    ...(options.matrixHtml === undefined ? [] : [writeOutput(options.matrixHtml, matrixHtml(built.matrix, { title }))]),
  ]
  const notStarted = built.runs.filter((run) => run.startError !== undefined)
  // The reason quotes the adapter: its lines escaped, each after the first indented; its stderr's last
  // lines, if any, under it as run prints them.
  for (const run of notStarted) {
    const stderr = run.stderrTail === undefined ? '' : `\n${stderrBlock(printable(run.label), run.stderrTail)}`
    console.error(`cannot start adapter ${printable(run.label)}: ${indentedLines(run.startError ?? '')}${stderr}`)
  }
  const stopped = built.runs.filter((run) => run.stopError !== undefined)
  for (const run of stopped) console.error(`adapter ${printable(run.label)} ${STOP_ERROR_SAYING} ${printable(run.stopError ?? '')}`)
  if (written.includes(false)) return 2
  return notStarted.length + stopped.length > 0 ? 1 : 0
}

/** Writes one output file and says so; false, with the reason on stderr, when it cannot be written. */
function writeOutput(path: string, text: string): boolean {
  try {
    writeOutputFile(path, text)
    console.log(`wrote ${printable(path)}`)
    return true
  } catch (error) {
    console.error(`cannot write ${printable(path)}: ${printable(errorMessage(error))}`)
    return false
  }
}
