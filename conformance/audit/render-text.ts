// The audit report as plain text for a terminal: the seven verdicts first, then each row's evidence,
// then every replacement with its shadowed text and the text that replaced it. Text from the log may
// hold control characters: every one is shown as its escape, so that no escape sequence can rewrite
// what the terminal shows (a forged "overall: PASS"), and a line break inside a one-line field is
// shown, not followed.
import type { AuditReplacement, AuditReport, AuditRow } from '../../generated/types/index.ts'
import { printable } from '../wording.ts'
import { appendAll, clip, formatTime, KIND_LABELS, logLine, markLabel, refusalNote, requirementsNote, tokenizerLine, tokenUnit } from './format.ts'

/** A text of the log as a quoted block: its lines kept, each shown printable behind a bar. */
function quoted(text: string): string {
  return clip(text).split('\n').map(line => `    | ${printable(line)}`).join('\n')
}

function overview(report: AuditReport): string[] {
  const width = Math.max(...report.rows.map(row => row.title.length))
  return report.rows.map((row, index) => `  ${index + 1}  ${row.title.padEnd(width)}  ${row.verdict.toUpperCase().padEnd(5)}  ${row.summary}`)
}

function rowSection(row: AuditRow, index: number): string[] {
  const lines = [`${index + 1}. ${row.title}: ${row.verdict.toUpperCase()}`, `   ${row.summary}`, `   checked by: ${row.checkedBy}`]
  for (const item of row.evidence) lines.push(`   [${markLabel(item.mark)}] ${printable(item.text)}${requirementsNote(item.requirements)}`)
  if (row.needsHuman !== null) lines.push(`   needs a person: ${row.needsHuman}`)
  return lines
}

function replacementSection(replacement: AuditReplacement, unit: string): string[] {
  const lines = [
    `seq ${replacement.seq}, ${KIND_LABELS[replacement.kind]} at ${formatTime(replacement.time)}: replaced ${replacement.start}…${replacement.end}`
      + (replacement.bracketOutcome === null ? '' : ` (bracket ${replacement.bracketOutcome})`),
  ]
  for (const node of replacement.shadowed) {
    lines.push(`  shadowed seq ${node.seq} (${printable(node.type)}, ${node.tokens} ${unit}):`, quoted(node.text))
  }
  lines.push(`  replaced by seq ${replacement.seq} (${replacement.tokens} ${unit}):`, quoted(replacement.text))
  if (replacement.absentTerms.length > 0) lines.push(`  not mentioned by the replacement (a reading aid): ${printable(replacement.absentTerms.join(', '))}`)
  return lines
}

export function renderText(report: AuditReport): string {
  const lines = [
    `dsh-conformance audit: ${printable(report.log.file)}`,
    logLine(report),
    tokenizerLine(report),
    `overall: ${report.overall.toUpperCase()}${refusalNote(report)}`,
    '',
    ...overview(report),
  ]
  report.rows.forEach((row, index) => appendAll(lines, ['', ...rowSection(row, index)]))
  if (report.replacements.length > 0) {
    lines.push('', 'Replacements, for a person to judge (constraint preservation):')
    for (const replacement of report.replacements) {
      lines.push('')
      appendAll(lines, replacementSection(replacement, tokenUnit(report)))
    }
  }
  return `${lines.join('\n')}\n`
}
