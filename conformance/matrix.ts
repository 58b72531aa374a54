// The compatibility matrix: requirement × implementation, each cell the outcomes of the cases that
// exercise that requirement. Plain data first, then Markdown; conformance/matrix-html.ts renders HTML.
import { countBy, countOutcomes, requirementKeys, type AdapterRun, type Counts } from './results.ts'
import type { Requirement } from './spec-catalog.ts'
import { suiteTitle, type SuiteIdentity } from './suite-identity.ts'
import type { VectorCase } from './vector-cases.ts'
import { markdownCell, markdownText, plural } from './wording.ts'

export interface MatrixColumn {
  name: string
  version: string
  language: string
  startError?: string
  /** How the adapter broke the protocol after its last reply (its cells stand; the run failed). */
  stopError?: string
  totals: Counts
}

export interface MatrixCell extends Counts {
  /** Ids of the cases that failed or erred, for the HTML page's tooltips. */
  failing: string[]
}

export interface MatrixRow {
  requirement: Pick<Requirement, 'id' | 'title' | 'chapter'>
  cells: MatrixCell[]
}

export interface Matrix {
  suite: SuiteIdentity
  selectedCases: number
  columns: MatrixColumn[]
  /** Rows grouped by spec chapter, in spec order; only requirements some selected case exercises. */
  chapters: { chapter: string; rows: MatrixRow[] }[]
}

/** Said of an adapter that broke the protocol after its last reply, before what it did. */
export const STOP_ERROR_SAYING = 'broke the protocol after its last reply:'

export type CellMark = 'pass' | 'fail' | 'skip' | 'partial' | 'none'

export function computeMatrix(requirements: readonly Requirement[], cases: readonly VectorCase[], runs: readonly AdapterRun[], suite: SuiteIdentity): Matrix {
  const keys = requirementKeys(cases)
  const perRun = runs.map((run) => {
    const failing = new Map<string, string[]>()
    for (const outcome of run.outcomes) {
      if (outcome.status !== 'fail' && outcome.status !== 'error') continue
      for (const id of keys(outcome.id)) failing.set(id, [...(failing.get(id) ?? []), outcome.id])
    }
    return { counts: countBy(run.outcomes, keys), failing }
  })
  const exercised = new Set(cases.flatMap((vector) => vector.requirements))
  const chapters: Matrix['chapters'] = []
  for (const requirement of requirements.filter((candidate) => exercised.has(candidate.id))) {
    const cells = perRun.map(({ counts, failing }) => ({
      ...(counts.get(requirement.id) ?? { pass: 0, fail: 0, error: 0, skip: 0 }),
      failing: failing.get(requirement.id) ?? [],
    }))
    const row = { requirement: { id: requirement.id, title: requirement.title, chapter: requirement.chapter }, cells }
    const chapter = requirement.chapter.replace(/\.md$/, '')
    const last = chapters.at(-1)
    if (last?.chapter === chapter) last.rows.push(row)
    else chapters.push({ chapter, rows: [row] })
  }
  const columns = runs.map((run): MatrixColumn => ({
    name: run.adapter?.name ?? run.label,
    version: run.adapter?.version ?? '—',
    language: run.adapter?.language ?? '—',
    ...(run.startError === undefined ? {} : { startError: run.startError }),
    ...(run.stopError === undefined ? {} : { stopError: run.stopError }),
    totals: countOutcomes(run.outcomes),
  }))
  return { suite, selectedCases: cases.length, columns, chapters }
}

export function cellMark(cell: Counts): CellMark {
  const total = cell.pass + cell.fail + cell.error + cell.skip
  if (total === 0) return 'none'
  if (cell.fail + cell.error > 0) return 'fail'
  if (cell.skip === total) return 'skip'
  return cell.skip > 0 ? 'partial' : 'pass'
}

/** The cell as text: passed/cases of the requirement, then the skips apart and the errors named. */
export function cellText(cell: Counts): string {
  const total = cell.pass + cell.fail + cell.error + cell.skip
  if (total === 0) return 'not run'
  if (cell.skip === total) return `skipped ${total}`
  const parts = [`${cell.pass}/${total}`]
  if (cell.skip > 0) parts.push(`skipped ${cell.skip}`)
  if (cell.error > 0) parts.push(plural(cell.error, 'error'))
  return parts.join(', ')
}

const MARKDOWN_MARK: Record<CellMark, string> = { pass: '✅', fail: '❌', skip: '⏭️', partial: '☑️', none: '' }

export const LEGEND_INTRO = 'Each cell counts the cases that exercise the requirement: passed/cases, with skipped cases counted apart. A skip or an error is never a pass.'

export const MARK_MEANING: Record<Exclude<CellMark, 'none'>, string> = {
  pass: 'every case passed',
  partial: 'none failed, some were skipped',
  fail: 'a case failed or erred',
  skip: 'every case was skipped (the implementation does not claim the profile or lacks an operation)',
}

function markdownLegend(): string {
  const marks = (Object.keys(MARK_MEANING) as (keyof typeof MARK_MEANING)[]).map((mark) => `${MARKDOWN_MARK[mark]} ${MARK_MEANING[mark]}`)
  return `${LEGEND_INTRO} ${marks.join('; ')}.`
}

/** GitHub's heading anchor of a requirement heading (`### SURF-5: Title`). */
export function requirementAnchor(requirement: Pick<Requirement, 'id' | 'title'>): string {
  return `${requirement.id}: ${requirement.title}`.toLowerCase().replace(/[^\p{L}\p{N} _-]/gu, '').replace(/ /g, '-')
}

/**
 * A requirement's title as a cell: the spec's own Markdown (a `code` span) kept, only what would end the
 * cell or open HTML escaped. Text from an adapter goes through markdownCell instead, all markup escaped.
 */
function specTitleCell(title: string): string {
  return title.replace(/\|/g, '\\|').replace(/</g, '&lt;')
}

export interface MatrixMarkdownOptions {
  title: string
  /** Lines under the title (say how the file was made). */
  preamble?: string[]
  /** Where spec/ is, relative to the file, to link each requirement to its rule; no links when absent. */
  specLink?: string
}

function totalsTable(matrix: Matrix): string[] {
  return [
    '| implementation | version | language | passed | failed | errors | skipped |',
    '|---|---|---|---:|---:|---:|---:|',
    ...matrix.columns.map((column) => {
      const { pass, fail, error, skip } = column.totals
      const counts = column.startError === undefined ? `${pass} | ${fail} | ${error} | ${skip}` : `not started: ${markdownCell(column.startError)} | | |`
      return `| ${markdownCell(column.name)} | ${markdownCell(column.version)} | ${markdownCell(column.language)} | ${counts} |`
    }),
    ...matrix.columns.flatMap((column) => column.stopError === undefined ? [] : ['', `${markdownCell(column.name)} ${STOP_ERROR_SAYING} ${markdownCell(column.stopError)}`]),
  ]
}

function requirementCell(row: MatrixRow, specLink: string | undefined): string {
  const title = specTitleCell(row.requirement.title)
  if (specLink === undefined) return `${row.requirement.id} ${title}`
  return `[${row.requirement.id}](${specLink}${row.requirement.chapter}#${requirementAnchor(row.requirement)}) ${title}`
}

export function matrixMarkdown(matrix: Matrix, options: MatrixMarkdownOptions): string {
  const { suite } = matrix
  const selected = matrix.selectedCases === suite.caseCount ? `all ${suite.caseCount} cases` : `${matrix.selectedCases} of ${suite.caseCount} cases`
  const lines = [
    `# ${options.title}`,
    '',
    ...(options.preamble ?? []).flatMap((line) => [line, '']),
    `Suite ${markdownText(suiteTitle(suite))}, content hash \`${suite.contentHash}\`, ${selected}.`,
    '',
    ...totalsTable(matrix),
    '',
    markdownLegend(),
  ]
  const header = `| requirement | ${matrix.columns.map((column) => markdownCell(column.name)).join(' | ')} |`
  const rule = `|---|${matrix.columns.map(() => '---').join('|')}|`
  for (const { chapter, rows } of matrix.chapters) {
    lines.push('', `## ${chapter}`, '', header, rule)
    for (const row of rows) {
      const cells = row.cells.map((cell) => `${MARKDOWN_MARK[cellMark(cell)]} ${cellText(cell)}`.trim())
      lines.push(`| ${requirementCell(row, options.specLink)} | ${cells.join(' | ')} |`)
    }
  }
  return `${lines.join('\n')}\n`
}
