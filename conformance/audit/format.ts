// Small formatting helpers shared by the text, Markdown and HTML renderers.
import type { AuditEvidenceMark, AuditReport } from '../../generated/types/index.ts'
import { characterCount, cutPoint, plural, printable, QUOTE_MOST, shortened } from '../wording.ts'
import { BYTES_PER_ESTIMATED_TOKEN } from './tokens.ts'
import { refusedOnly } from './verdicts.ts'

/** Shadowed and summary texts longer than this are cut in text and Markdown (JSON and HTML keep all). */
export const TEXT_SHOWN = 1200

export function formatTime(ms: number): string {
  const date = new Date(ms)
  return Number.isNaN(date.getTime()) ? String(ms) : date.toISOString()
}

/** `text` cut after `limit` code units, never inside a surrogate pair, saying how much is left out. */
export function clip(text: string, limit = TEXT_SHOWN): string {
  if (text.length <= limit) return text
  const end = cutPoint(text, limit)
  return `${text.slice(0, end)}… (${characterCount(text.slice(end))} more characters: the JSON and HTML outputs hold the whole text)`
}

/** Adds `more` to `lines` one at a time: spreading a long array into one call overflows the stack. */
export function appendAll(lines: string[], more: readonly string[]): void {
  for (const line of more) lines.push(line)
}

/** The longest run of `character` in `text` (0 when there is none), without spreading the runs. */
export function longestRun(text: string, character: string): number {
  let longest = 0
  let current = 0
  for (const each of text) {
    current = each === character ? current + 1 : 0
    if (current > longest) longest = current
  }
  return longest
}

export function markLabel(mark: AuditEvidenceMark): string {
  return mark.toUpperCase()
}

/** ` (ENV-9, PROV-5)` after an evidence line, or nothing. */
export function requirementsNote(requirements: readonly string[] | undefined): string {
  return requirements === undefined || requirements.length === 0 ? '' : ` (${requirements.join(', ')})`
}

export function tokenUnit(report: AuditReport): string {
  return report.tokenizer.kind === 'estimate' ? 'estimated tokens' : 'tokens'
}

export function tokenizerLine(report: AuditReport): string {
  const { tokenizer } = report
  return tokenizer.kind === 'estimate'
    ? `token counts: ESTIMATE (${tokenizer.name}) — ${tokenizer.note}`
    : `token counts: ${tokenizer.name}${tokenizer.estimatedRuns === 0 ? '' : `; ${plural(tokenizer.estimatedRuns, 'run')} of text too long to count, with no place to cut ${tokenizer.estimatedRuns === 1 ? 'it' : 'them'}, estimated at one token per ${BYTES_PER_ESTIMATED_TOKEN} UTF-8 bytes`}`
}

/** The log's session id as the heading shows it: escaped, and cut when long. */
export function sessionIdText(report: AuditReport): string {
  return printable(shortened(report.log.sessionId ?? '(unknown)', QUOTE_MOST))
}

/** What the heading says of the log after its session id. */
export function logFacts(report: AuditReport): string {
  const { log } = report
  const events = log.events === null ? 'not decoded' : plural(log.events, 'event')
  return `${events} · ${log.bytes} bytes ${log.encoding} JSONL · vocabulary ${log.vocabulary}`
}

export function logLine(report: AuditReport): string {
  return `session ${sessionIdText(report)} · ${logFacts(report)}`
}

/** After the overall verdict of a refused log: its rows fail as this reader cannot read it (FMT-5). */
export function refusalNote(report: AuditReport): string {
  return refusedOnly(report) ? ' (this reader refuses the log, which is no sign of damage: FMT-5)' : ''
}

export const KIND_LABELS: Record<AuditReport['replacements'][number]['kind'], string> = {
  'compaction-checkpoint': 'compaction checkpoint',
  'tool-result-rewrite': 'tool-result rewrite',
  'other-replace': 'replace',
}
