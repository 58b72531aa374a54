// The compatibility matrix as one self-contained HTML page: no scripts, no external files; colours
// say pass, fail, partial and skip, and each cell's tooltip names the failing cases.
import { cellMark, cellText, LEGEND_INTRO, MARK_MEANING, requirementAnchor, STOP_ERROR_SAYING, type Matrix, type MatrixCell, type MatrixRow } from './matrix.ts'
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
code { font-size: 0.9em; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
th, td { border: 1px solid #d0d7de; padding: 0.25rem 0.6rem; text-align: left; vertical-align: top; }
thead th { position: sticky; top: 0; background: #f6f8fa; }
td.num { text-align: right; }
.pass { background: #dafbe1; } .fail { background: #ffebe9; }
.partial { background: #fff8c5; } .skip { background: #eaeef2; color: #57606a; }
.legend span { display: inline-block; padding: 0.1rem 0.5rem; margin: 0 0.3rem 0.3rem 0; border: 1px solid #d0d7de; }
`

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

function tooltip(cell: MatrixCell): string {
  if (cell.failing.length === 0) return ''
  const shown = cell.failing.slice(0, 20).join(', ')
  return ` title="failing: ${escapeHtml(shown)}${cell.failing.length > 20 ? ', …' : ''}"`
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
  return `<table><thead><tr><th>implementation</th><th>version</th><th>language</th><th>passed</th><th>failed</th><th>errors</th><th>skipped</th></tr></thead>\n<tbody>\n${rows.join('\n')}\n</tbody></table>${stopped.join('')}`
}

export function matrixHtml(matrix: Matrix, options: MatrixHtmlOptions): string {
  const { suite } = matrix
  const head = `<tr><th>requirement</th>${matrix.columns.map((column) => `<th>${escapeHtml(column.name)}</th>`).join('')}</tr>`
  const sections = matrix.chapters.map(({ chapter, rows }) => {
    const body = rows.map((row) => {
      const cells = row.cells.map((cell) => `<td class="${cellMark(cell)}"${tooltip(cell)}>${escapeHtml(cellText(cell))}</td>`).join('')
      return `<tr>${requirementCell(row, options.specLink)}${cells}</tr>`
    })
    return `<h2 id="${escapeHtml(chapter)}">${escapeHtml(chapter)}</h2>\n<table><thead>${head}</thead>\n<tbody>\n${body.join('\n')}\n</tbody></table>`
  })
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
<h1>${escapeHtml(options.title)}</h1>
${(options.preamble ?? []).map((line) => `<p>${withCode(escapeHtml(line))}</p>`).join('\n')}
<p>Suite ${escapeHtml(suiteTitle(suite))}, content hash <code>${escapeHtml(suite.contentHash)}</code>, ${selected}.</p>
${totals(matrix)}
<p>${escapeHtml(LEGEND_INTRO)}</p>
<p class="legend">${Object.entries(MARK_MEANING).map(([mark, meaning]) => `<span class="${mark}">${escapeHtml(meaning)}</span>`).join(' ')}</p>
${sections.join('\n')}
</body>
</html>
`
}
