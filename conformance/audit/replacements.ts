// Every replace of a loaded log as plain data: the range it shadowed, the messages it took off the
// surface, the text that took their place, the bracket it belongs to and the claim before it. The
// constraint-preservation row lists these for a person; the surface, budget and timeline read them.
import { isCheckpoint } from '../../reference/compaction.ts'
import { isNonNegativeSafeInteger, type JsonRecord } from '../../reference/lossless-json.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import type { AuditReplacement } from '../../generated/types/index.ts'
import { citedSeqs, dataOf, messageOfEvent, messageText, recordAt, stringAt, type LoadedLog } from './log.ts'
import type { TokenCounter } from './tokens.ts'
import { spanAround } from './brackets.ts'

const ABSENT_TERMS_SHOWN = 20

/** Text and token count of each event's message, each computed at most once. */
export interface MessageMeasure {
  text(seq: number): string
  tokens(seq: number): number
}

export function measureMessages(events: readonly SessionEvent[], counter: TokenCounter): MessageMeasure {
  const texts = new Map<number, string>()
  const tokens = new Map<number, number>()
  const text = (seq: number): string => {
    if (!texts.has(seq)) texts.set(seq, messageText(messageOfEvent(events[seq])))
    return texts.get(seq) as string
  }
  return {
    text,
    tokens(seq) {
      if (!tokens.has(seq)) tokens.set(seq, counter.count(text(seq)))
      return tokens.get(seq) as number
    },
  }
}

/** The summary or prune that claims this replace: the event right before it, else its bracket's summary. */
export function claimFor(log: LoadedLog, seq: number): SessionEvent | undefined {
  const before = log.events[seq - 1]
  if (before !== undefined && (before.type === 'compaction/summary' || before.type === 'compaction/prune')) return before
  const summarySeq = spanAround(log.bracketSpans, seq)?.summarySeq
  return summarySeq !== undefined && summarySeq < seq ? log.events[summarySeq] : undefined
}

function kindOf(event: SessionEvent): AuditReplacement['kind'] {
  if (isCheckpoint(event)) return 'compaction-checkpoint'
  return event.type === 'tool/result' ? 'tool-result-rewrite' : 'other-replace'
}

const TERM = /(?<![A-Za-z0-9_.~-])[A-Za-z0-9_.~-]*\/[A-Za-z0-9_./~-]+|[A-Za-z_][A-Za-z0-9_]*|\d[\d.,:]*\d/g

/** Paths, identifiers with digits, underscores or inner capitals, all-capital words and numbers. */
function isSalient(term: string): boolean {
  if (term.includes('/')) return term.length > 1
  if (/^\d/.test(term)) return term.replace(/\D/g, '').length >= 2
  return /\d|_/.test(term) || /[a-z][A-Z]/.test(term) || /^[A-Z]{2,}$/.test(term)
}

/** Salient terms of the shadowed text that the replacing text never mentions. */
export function absentTerms(shadowedText: string, replacingText: string): string[] {
  const seen = new Set<string>()
  for (const term of shadowedText.match(TERM) ?? []) {
    if (isSalient(term) && !replacingText.includes(term)) seen.add(term)
    if (seen.size === ABSENT_TERMS_SHOWN) break
  }
  return [...seen]
}

function roleOf(message: JsonRecord | undefined): string | null {
  return stringAt(message, 'role') ?? null
}

export function auditReplacements(log: LoadedLog, measure: MessageMeasure): AuditReplacement[] {
  return log.surface.replacements.map(replacement => {
    const event = log.events[replacement.seq] as SessionEvent
    const bracket = spanAround(log.bracketSpans, replacement.seq)?.bracket
    const claim = claimFor(log, replacement.seq)
    const recorded = dataOf(claim)['shadowedTokenCount']
    const shadowed = replacement.shadowedSeqs.map(seq => ({
      seq,
      type: log.events[seq]?.type ?? 'unknown',
      role: roleOf(messageOfEvent(log.events[seq])),
      text: measure.text(seq),
      tokens: measure.tokens(seq),
    }))
    const text = measure.text(replacement.seq)
    return {
      seq: replacement.seq,
      time: event.time,
      type: event.type,
      kind: kindOf(event),
      start: replacement.start,
      end: replacement.end,
      shadowedSeqs: replacement.shadowedSeqs,
      citedSeqs: citedSeqs(event),
      compactionId: isCheckpoint(event) ? stringAt(recordAt(dataOf(event), 'source'), 'compactionId') ?? null : null,
      bracketOutcome: bracket?.outcome ?? null,
      recordedShadowedTokenCount: isNonNegativeSafeInteger(recorded) ? recorded : null,
      text,
      tokens: measure.tokens(replacement.seq),
      shadowed,
      shadowedTokens: shadowed.reduce((total, node) => total + node.tokens, 0),
      absentTerms: absentTerms(shadowed.map(node => node.text).join('\n'), text),
    }
  })
}
