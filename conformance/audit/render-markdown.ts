// The audit report as Markdown (for an issue or a pull request): a verdict table, a section per row
// with its evidence, and the replacements with their shadowed and replacing texts in fenced blocks.
import type { AuditReplacement, AuditReport, AuditRow } from '../../generated/types/index.ts'
import { markdownCell, markdownText, printable, printableLines } from '../wording.ts'
import { appendAll, clip, formatTime, KIND_LABELS, longestRun, logLine, markLabel, refusalNote, requirementsNote, tokenizerLine, tokenUnit } from './format.ts'

/** A code span whose fence is longer than any run of backticks in the text (CommonMark). */
function codeSpan(text: string): string {
  const shown = printable(text)
  const fence = '`'.repeat(longestRun(shown, '`') + 1)
  // CommonMark drops one space at each end of a span: the padding keeps a backtick at an end apart
  // from the fence, and blanks at both ends from being dropped.
  const padded = /^[ `]|[ `]$/.test(shown) ? ` ${shown} ` : shown
  return `${fence}${padded}${fence}`
}

/**
 * A fenced block whose fence is longer than any run of tildes in the text. A code block shows control
 * characters raw, so they are escaped as in the text output: `cat` of the report runs no escape sequence.
 */
function fenced(text: string): string {
  const shown = printableLines(text)
  const fence = '~'.repeat(Math.max(2, longestRun(shown, '~')) + 1)
  return `${fence}text\n${shown}\n${fence}`
}

function rowSection(row: AuditRow, index: number): string[] {
  const lines = [`## ${index + 1}. ${row.title}: **${row.verdict}**`, '', row.summary, '', `*Checked by:* ${row.checkedBy}`, '']
  for (const item of row.evidence) lines.push(`- **${markLabel(item.mark)}** ${markdownText(item.text)}${requirementsNote(item.requirements)}`)
  if (row.needsHuman !== null) lines.push('', `> **Needs a person:** ${row.needsHuman}`)
  return lines
}

function replacementSection(replacement: AuditReplacement, unit: string): string[] {
  const outcome = replacement.bracketOutcome === null ? '' : `, bracket ${replacement.bracketOutcome}`
  const lines = [`### seq ${replacement.seq}: ${KIND_LABELS[replacement.kind]} replaced ${replacement.start}…${replacement.end}`, '',
    `At ${formatTime(replacement.time)}${outcome}; cites ${replacement.citedSeqs.join(', ') || 'nothing'}.`, '']
  for (const node of replacement.shadowed) lines.push(`Shadowed seq ${node.seq} (${markdownText(node.type)}, ${node.tokens} ${unit}):`, '', fenced(clip(node.text)), '')
  lines.push(`Replaced by seq ${replacement.seq} (${replacement.tokens} ${unit}):`, '', fenced(clip(replacement.text)))
  if (replacement.absentTerms.length > 0) lines.push('', `Not mentioned by the replacement (a reading aid, not a verdict): ${replacement.absentTerms.map(codeSpan).join(', ')}`)
  return lines
}

export function renderMarkdown(report: AuditReport): string {
  const lines = [
    `# Session log audit: ${codeSpan(report.log.file)}`,
    '',
    `${markdownText(logLine(report))}  `,
    `${tokenizerLine(report)}  `,
    `Overall: **${report.overall}**${refusalNote(report)}`,
    '',
    '| # | row | verdict | summary |',
    '|---|---|---|---|',
    ...report.rows.map((row, index) => `| ${index + 1} | ${row.title} | **${row.verdict}** | ${markdownCell(row.summary, Infinity)} |`),
  ]
  report.rows.forEach((row, index) => appendAll(lines, ['', ...rowSection(row, index)]))
  if (report.replacements.length > 0) {
    lines.push('', '## Replacements, for a person to judge', '')
    for (const replacement of report.replacements) {
      lines.push('')
      appendAll(lines, replacementSection(replacement, tokenUnit(report)))
    }
  }
  return `${lines.join('\n')}\n`
}
