// The compatibility matrix as one self-contained HTML page: no scripts, no external files; a symbol and
// a colour say pass, fail, partial and skip, and a cell with failing cases opens on a list of them.
import { cellMark, cellText, LEGEND_INTRO, MARK_MEANING, requirementAnchor, STOP_ERROR_SAYING, type CellMark, type Matrix, type MatrixCell, type MatrixRow } from './matrix.ts'
import { suiteTitle } from './suite-identity.ts'
import { printable } from './wording.ts'

/**
 * Text as HTML, its control and format characters shown as \u escapes first (printable): an adapter's
 * name holding a right-to-left override would show reordered ("evil\u202egnissap lla" as "evilall
 * passing").
 */
function escapeHtml(text: string): string {
  return printable(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;')
}

const STYLE = `
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem; color: #1f2328; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.2rem; margin-top: 2rem; }
code { font-size: 0.9em; overflow-wrap: anywhere; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #d0d7de; padding: 0.25rem 0.6rem; text-align: left; vertical-align: top; }
thead th { position: sticky; top: 0; background: #f6f8fa; }
td.num { text-align: right; }
.pass { background: #dafbe1; } .fail { background: #ffebe9; }
.partial { background: #fff8c5; } .skip { background: #eaeef2; color: #57606a; }
.legend span { display: inline-block; padding: 0.1rem 0.5rem; margin: 0 0.3rem 0.3rem 0; border: 1px solid #d0d7de; }
td details summary { cursor: pointer; } td details ul { margin: 0.3rem 0 0; padding-left: 1.1rem; font-size: 0.9em; }
nav ul { columns: 3 14rem; padding-left: 1.1rem; }
/* Only a narrow screen scrolls a table sideways in its box: a box that scrolls would hold the sticky
   column names to itself, and they would scroll off with the rows. */
@media (max-width: 720px) { body { margin: 1rem; } .scroll { overflow-x: auto; } }
@media print {
  thead th { position: static; } tr { break-inside: avoid; }
  td, .legend span { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
}
`

/** The most failing cases a cell lists. */
const FAILING_LISTED = 20

/**
 * The symbol before a cell's counts, so that its state does not rest on a colour (print drops it):
 * text symbols that common fonts draw, where the Markdown page's emoji need an emoji font.
 */
const CELL_SYMBOL: Record<CellMark, string> = { pass: '✓', fail: '✗', partial: '◑', skip: '○', none: '' }

export interface MatrixHtmlOptions {
  title: string
  preamble?: string[]
  /** Where spec/ is, relative to the page, to link each requirement to its rule. */
  specLink?: string
}

/** Backticked spans of already escaped text as <code>. */
function withCode(html: string): string {
  return html.replace(/`([^`]+)`/g, '<code>$1</code>')
}

/** A table in a box that scrolls sideways on a narrow screen; focusable, so a keyboard can scroll it. */
function scrollBox(label: string, table: string): string {
  return `<div class="scroll" tabindex="0" role="region" aria-label="${escapeHtml(label)}">${table}</div>`
}

/** A cell: its symbol and counts, and, when cases failed, a closed list of them that a click opens. */
function matrixCell(cell: MatrixCell): string {
  const mark = cellMark(cell)
  const text = escapeHtml(`${CELL_SYMBOL[mark]} ${cellText(cell)}`.trim())
  if (cell.failing.length === 0) return `<td class="${mark}">${text}</td>`
  const listed = cell.failing.slice(0, FAILING_LISTED).map((id) => `<li>${escapeHtml(id)}</li>`)
  const more = cell.failing.length > FAILING_LISTED ? [`<li>and ${cell.failing.length - FAILING_LISTED} more</li>`] : []
  return `<td class="${mark}"><details><summary>${text}</summary><ul>${[...listed, ...more].join('')}</ul></details></td>`
}

function requirementCell(row: MatrixRow, specLink: string | undefined): string {
  const id = escapeHtml(row.requirement.id)
  const link = specLink === undefined ? id : `<a href="${escapeHtml(`${specLink}${row.requirement.chapter}#${requirementAnchor(row.requirement)}`)}">${id}</a>`
  return `<td>${link} ${withCode(escapeHtml(row.requirement.title))}</td>`
}

function totals(matrix: Matrix): string {
  const rows = matrix.columns.map((column) => {
    const { pass, fail, error, skip } = column.totals
    const counts = column.startError === undefined
      ? [pass, fail, error, skip].map((count) => `<td class="num">${count}</td>`).join('')
      : `<td colspan="4">not started: ${escapeHtml(column.startError)}</td>`
    return `<tr><td>${escapeHtml(column.name)}</td><td>${escapeHtml(column.version)}</td><td>${escapeHtml(column.language)}</td>${counts}</tr>`
  })
  const stopped = matrix.columns.flatMap((column) => column.stopError === undefined ? [] : [`\n<p>${escapeHtml(column.name)} ${STOP_ERROR_SAYING} ${escapeHtml(column.stopError)}</p>`])
  const table = `<table><thead><tr><th>implementation</th><th>version</th><th>language</th><th>passed</th><th>failed</th><th>errors</th><th>skipped</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody></table>`
  return `${scrollBox('Totals', table)}${stopped.join('')}`
}

export function matrixHtml(matrix: Matrix, options: MatrixHtmlOptions): string {
  const { suite } = matrix
  const head = `<tr><th>requirement</th>${matrix.columns.map((column) => `<th>${escapeHtml(column.name)}</th>`).join('')}</tr>`
  const sections = matrix.chapters.map(({ chapter, rows }) => {
    const body = rows.map((row) => {
      return `<tr>${requirementCell(row, options.specLink)}${row.cells.map(matrixCell).join('')}</tr>`
    })
    const table = `<table aria-labelledby="${escapeHtml(chapter)}"><thead>${head}</thead>\n<tbody>\n${body.join('\n')}\n</tbody></table>`
    return `<h2 id="${escapeHtml(chapter)}">${escapeHtml(chapter)}</h2>\n${scrollBox(chapter, table)}`
  })
  const index = `<nav aria-label="Chapters"><ul>${matrix.chapters.map(({ chapter }) => `<li><a href="#${escapeHtml(chapter)}">${escapeHtml(chapter)}</a></li>`).join('')}</ul></nav>`
  const selected = matrix.selectedCases === suite.caseCount ? `all ${suite.caseCount} cases` : `${matrix.selectedCases} of ${suite.caseCount} cases`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(options.title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<h1>${escapeHtml(options.title)}</h1>
${(options.preamble ?? []).map((line) => `<p>${withCode(escapeHtml(line))}</p>`).join('\n')}
<p>Suite ${escapeHtml(suiteTitle(suite))}, content hash <code>${escapeHtml(suite.contentHash)}</code>, ${selected}.</p>
${totals(matrix)}
<p>${escapeHtml(LEGEND_INTRO)}</p>
<p class="legend">${Object.entries(MARK_MEANING).map(([mark, meaning]) => `<span class="${mark}">${escapeHtml(`${CELL_SYMBOL[mark as keyof typeof MARK_MEANING]} ${meaning}`)}</span>`).join(' ')}</p>
${index}
${sections.join('\n')}
</main>
</body>
</html>
`
}
