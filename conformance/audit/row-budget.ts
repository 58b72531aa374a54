// Row 7, budget: did shortening the surface save context? Raw events and bytes against surface
// messages, tokens of the transcript against the current surface, and the share the system prompt and
// tool schemas take of the next request. Token counts come from tokens.ts (a tokenizer, or an estimate
// that every line then says it is).
import { foldRequestContext, foldRequestHeader } from '../../reference/request-header.ts'
import { deriveMessages } from '../../reference/derived-messages.ts'
import { isSurfaceEligibleType } from '../../reference/vocabulary.ts'
import { isNonNegativeSafeInteger, type JsonRecord } from '../../reference/lossless-json.ts'
import type { SessionEvent } from '../../reference/envelope.ts'
import type { AuditBudget, AuditEvidence, AuditProviderUsage, AuditReplacement, AuditRow, AuditTokens } from '../../generated/types/index.ts'
import { dataOf, numberAt, recordAt, type AuditedLog, type LoadedLog } from './log.ts'
import { percent, plural } from '../wording.ts'
import type { MessageMeasure } from './replacements.ts'
import type { TokenCounter } from './tokens.ts'
import { capped, evidence, REPLACE_ITEMS_LISTED, row } from './verdicts.ts'
import { jsonText } from './json-text.ts'

/** A recorded shadowedTokenCount this far from our count (either way, and by this many tokens) is worth a look. */
const TOKEN_COUNT_TOLERANCE = 2
const TOKEN_COUNT_SLACK = 50
const utf8 = new TextEncoder()

function fixedTokens(header: JsonRecord | null, counter: TokenCounter): { system: number; tools: number; toolCount: number } {
  const system = typeof header?.['system'] === 'string' ? counter.count(header['system']) : 0
  const tools = Array.isArray(header?.['tools']) ? header['tools'] : []
  return { system, tools: tools.length === 0 ? 0 : counter.count(jsonText(tools)), toolCount: tools.length }
}

function sum(seqs: Iterable<number>, measure: MessageMeasure): number {
  let total = 0
  for (const seq of seqs) total += measure.tokens(seq)
  return total
}

function tokenCounts(loaded: LoadedLog, replacements: readonly AuditReplacement[], measure: MessageMeasure, counter: TokenCounter): AuditTokens {
  const { events } = loaded
  const header = foldRequestHeader(events)
  const fixed = fixedTokens(header, counter)
  const first = replacements[0]
  // With no request header in force at the first replace, the fixed part then is unknown, not zero.
  const headerAtFirst = first === undefined ? null : foldRequestHeader(events, first.seq)
  const fixedAtFirst = headerAtFirst === null ? null : fixedTokens(headerAtFirst, counter)
  const surfaceMessages = sum(loaded.surface.nodes, measure)
  const transcriptMessages = sum(events.filter(event => isSurfaceEligibleType(event.type) && event.surfaceOp === 'append').map(event => event.seq), measure)
  const window = numberAt(foldRequestContext(events) ?? undefined, 'contextWindow')
  return {
    systemPrompt: fixed.system,
    toolSchemas: fixed.tools,
    toolCount: fixed.toolCount,
    surfaceMessages,
    transcriptMessages,
    shadowed: sum(new Set(replacements.flatMap(replacement => replacement.shadowedSeqs)), measure),
    replacementText: replacements.reduce((total, replacement) => total + replacement.tokens, 0),
    saved: transcriptMessages - surfaceMessages,
    headerInForce: header !== null,
    fixedAtFirstReplacement: fixedAtFirst === null ? null : fixedAtFirst.system + fixedAtFirst.tools,
    contextWindow: isNonNegativeSafeInteger(window) ? window : null,
  }
}

/**
 * A provider's token count: a non-negative safe integer, or 0. A reader accepts any chunk content
 * (VOC-5), so a log may hold -5.5 or 1e308 here; such a value is no count and is left out.
 */
function tokenCountAt(record: JsonRecord, key: string): number {
  const value = record[key]
  return isNonNegativeSafeInteger(value) ? value : 0
}

/** One usage record's counts. The input counts are disjoint: `input` leaves out the cached input (VOC-5's token usage). */
interface UsageCounts { input: number; cacheRead: number; cacheWrite: number; output: number }

function usageOf(record: JsonRecord | undefined): UsageCounts | undefined {
  if (record === undefined) return undefined
  return {
    input: tokenCountAt(record, 'inputTokens'),
    cacheRead: tokenCountAt(record, 'cacheReadTokens'),
    cacheWrite: tokenCountAt(record, 'cacheWriteTokens'),
    output: tokenCountAt(record, 'outputTokens'),
  }
}

/** A total of token counts, held at the largest safe integer rather than past it. */
function totalOf(counts: readonly number[]): number {
  return Math.min(Number.MAX_SAFE_INTEGER, counts.reduce((total, count) => total + count, 0))
}

/**
 * DER-10: usage chunks per step, and the message's usage only for a step with no usage chunk. The last
 * call's prompt is all of its input: the tokens it sent uncached, read from the cache and written to it.
 */
export function providerUsage(events: readonly SessionEvent[]): AuditProviderUsage {
  const chunks = new Map<string, UsageCounts[]>()
  const messages = new Map<string, UsageCounts>()
  let last: UsageCounts | undefined
  for (const event of events) {
    const data = dataOf(event)
    const step = `${String(data['turn'])}/${String(data['step'])}`
    const chunk = recordAt(data, 'chunk')
    const usage = event.type === 'assistant/chunk' && chunk?.['type'] === 'usage' ? usageOf(recordAt(chunk, 'usage'))
      : event.type === 'assistant/message' ? usageOf(recordAt(data, 'usage')) : undefined
    if (usage === undefined) continue
    if (event.type === 'assistant/chunk') chunks.set(step, [...(chunks.get(step) ?? []), usage])
    else messages.set(step, usage)
    last = usage
  }
  const records = [...chunks.values()].flat()
  for (const [step, usage] of messages) if (!chunks.has(step)) records.push(usage)
  return {
    steps: new Set([...chunks.keys(), ...messages.keys()]).size,
    inputTokens: totalOf(records.map(usage => usage.input)),
    cacheReadTokens: totalOf(records.map(usage => usage.cacheRead)),
    cacheWriteTokens: totalOf(records.map(usage => usage.cacheWrite)),
    outputTokens: totalOf(records.map(usage => usage.output)),
    lastInputTokens: last === undefined ? null : last.input,
    lastPromptTokens: last === undefined ? null : totalOf([last.input, last.cacheRead, last.cacheWrite]),
  }
}

/** The provider's usage in words: totals, then the last call's prompt. */
function providerUsageText(usage: AuditProviderUsage): string {
  const cached = usage.cacheReadTokens + usage.cacheWriteTokens === 0 ? ''
    : ` (beside ${usage.cacheReadTokens} read from its prompt cache and ${usage.cacheWriteTokens} written to it)`
  const lastPrompt = usage.lastPromptTokens ?? 0
  const lastUncached = usage.lastInputTokens ?? 0
  const last = lastPrompt === lastUncached ? `${lastPrompt} prompt tokens` : `a prompt of ${lastPrompt} tokens, ${lastUncached} of them not cached`
  return `the provider reported ${usage.inputTokens} uncached input tokens${cached} and ${usage.outputTokens} output tokens over ${plural(usage.steps, 'step')}; the last call read ${last}`
}

export function auditBudget(log: AuditedLog, loaded: LoadedLog, replacements: readonly AuditReplacement[], measure: MessageMeasure, counter: TokenCounter): AuditBudget {
  const messages = deriveMessages(loaded.events)
  return {
    rawEvents: loaded.events.length,
    rawBytes: log.info.bytes,
    logOnlyEvents: loaded.events.filter(event => !isSurfaceEligibleType(event.type)).length,
    surfaceNodes: loaded.surface.nodes.length,
    surfaceMessages: messages.length,
    surfaceMessageBytes: utf8.encode(jsonText(messages)).length,
    tokens: tokenCounts(loaded, replacements, measure, counter),
    providerUsage: providerUsage(loaded.events),
  }
}

function shadowedCountEvidence(replacement: AuditReplacement, unit: string): AuditEvidence | undefined {
  const recorded = replacement.recordedShadowedTokenCount
  if (recorded === null) return undefined
  const counted = replacement.shadowedTokens
  const ratio = counted === 0 ? Number.POSITIVE_INFINITY : recorded / counted
  const text = `replace seq ${replacement.seq}: its claim records shadowedTokenCount ${recorded}; the shadowed messages count ${counted} ${unit} here`
  const off = (ratio > TOKEN_COUNT_TOLERANCE || ratio < 1 / TOKEN_COUNT_TOLERANCE) && Math.abs(recorded - counted) > TOKEN_COUNT_SLACK
  return evidence(off ? 'warn' : 'info', off ? `${text}: off by more than a factor of ${TOKEN_COUNT_TOLERANCE}` : `${text} (producers estimate with their own meter)`, { seq: replacement.seq, requirements: ['COMP-5'] })
}

function savingEvidence(budget: AuditBudget, replacements: readonly AuditReplacement[], unit: string): AuditEvidence[] {
  const { tokens } = budget
  const fixed = tokens.systemPrompt + tokens.toolSchemas
  if (replacements.length === 0) return [evidence('pass', 'no replace: the surface was never shortened, so no saving can have been taken back')]
  const notSmaller = replacements.filter(replacement => replacement.kind !== 'tool-result-rewrite' && replacement.tokens >= replacement.shadowedTokens)
  const notSmallerItems = notSmaller.map(replacement => evidence('warn', `replace seq ${replacement.seq} (${replacement.tokens} ${unit}) is not smaller than what it shadowed (${replacement.shadowedTokens} ${unit})`, { seq: replacement.seq, requirements: ['REGION-8'] }))
  const items = capped(notSmallerItems, REPLACE_ITEMS_LISTED)
  const growth = tokens.fixedAtFirstReplacement === null ? 0 : fixed - tokens.fixedAtFirstReplacement
  if (tokens.saved <= 0) {
    items.push(evidence('fail', `the replaces did not shorten the surface: the transcript holds ${tokens.transcriptMessages} ${unit}, the surface ${tokens.surfaceMessages}`, { requirements: ['DER-1', 'REGION-8'] }))
  } else if (!tokens.headerInForce) {
    items.push(evidence('warn', `the replaces saved ${tokens.saved} ${unit} (${percent(tokens.saved, tokens.transcriptMessages)} of the transcript), but no request/header is in force at the end of the log, so whether the system prompt and tool schemas took it back is unknown (see Request rebuild)`, { requirements: ['HDR-4'] }))
  } else if (growth >= tokens.saved) {
    items.push(evidence('fail', `the system prompt and tool schemas grew by ${growth} ${unit} since the first replace, as much as or more than the ${tokens.saved} the replaces saved: the budget was taken back`, { requirements: ['HDR-4'] }))
  } else if (fixed > tokens.surfaceMessages) {
    items.push(evidence('warn', `the replaces saved ${tokens.saved} ${unit}, but the system prompt and tool schemas (${fixed} ${unit}) outweigh the surface messages (${tokens.surfaceMessages}): shortening the messages further frees at most ${tokens.surfaceMessages}`, { requirements: ['HDR-4', 'DER-1'] }))
  } else {
    items.push(evidence('pass', `the replaces saved ${tokens.saved} ${unit} (${percent(tokens.saved, tokens.transcriptMessages)} of the transcript), and the system prompt and tool schemas did not take it back`))
  }
  return items
}

/**
 * How much of the context window in force the next request would fill; with no request header in force
 * only the surface messages are known. Also the budget chart's words (render-svg.ts).
 */
export function windowFill(tokens: AuditTokens, request: number, windowName: string): string {
  if (tokens.contextWindow === 0) return 'the context in force records a window of 0 tokens, which no request fits'
  const window = `the ${String(tokens.contextWindow)}-token ${windowName}`
  if (!tokens.headerInForce) return `the surface messages alone would fill ${percent(tokens.surfaceMessages, tokens.contextWindow ?? 0)} of ${window}, the rest of the request being unknown`
  return `the next request would fill ${percent(request, tokens.contextWindow ?? 0)} of ${window}`
}

export function budgetRow(budget: AuditBudget, replacements: readonly AuditReplacement[], counter: TokenCounter, encoding: 'raw' | 'zstd'): AuditRow {
  const unit = counter.kind === 'estimate' ? 'estimated tokens' : 'tokens'
  const { tokens, providerUsage: usage } = budget
  const fixed = tokens.systemPrompt + tokens.toolSchemas
  const request = fixed + tokens.surfaceMessages
  const nextRequest = tokens.headerInForce
    ? `next request: system prompt ${tokens.systemPrompt} + ${plural(tokens.toolCount, 'tool schema')} ${tokens.toolSchemas} + surface messages ${tokens.surfaceMessages} = ${request} ${unit}; ${request === 0 ? 'the request holds nothing yet' : `system prompt and tool schemas take ${percent(fixed, request)}`}`
    : `next request: surface messages ${tokens.surfaceMessages} ${unit}; no request/header is in force, so its system prompt and tool schemas are unknown`
  const items: AuditEvidence[] = [
    evidence('info', `raw log: ${plural(budget.rawEvents, 'event')} (${budget.logOnlyEvents} log-only) in ${budget.rawBytes} bytes${encoding === 'zstd' ? ' as stored, zstd-compressed' : ''}; surface: ${plural(budget.surfaceNodes, 'node')}, ${plural(budget.surfaceMessages, 'message')} in ${budget.surfaceMessageBytes} bytes of JSON`, { requirements: ['DER-1'] }),
    evidence('info', nextRequest, { requirements: ['HDR-4'] }),
    evidence('info', `transcript of every appended message: ${tokens.transcriptMessages} ${unit}; replaces shadowed ${tokens.shadowed} and put ${tokens.replacementText} in their place`, { requirements: ['DER-9'] }),
  ]
  if (tokens.contextWindow !== null) items.push(evidence('info', windowFill(tokens, request, 'context window'), { requirements: ['HDR-8'] }))
  if (usage.steps > 0) items.push(evidence('info', providerUsageText(usage), { requirements: ['DER-10'] }))
  items.push(...capped(replacements.flatMap(replacement => shadowedCountEvidence(replacement, unit) ?? []), REPLACE_ITEMS_LISTED))
  items.push(...savingEvidence(budget, replacements, unit))
  return row('budget', items, verdict => {
    if (verdict === 'pass' && replacements.length === 0) return tokens.headerInForce ? 'Nothing was replaced; the shares of the next request are listed.' : 'Nothing was replaced; with no request header in force, the shares of the next request are unknown.'
    if (verdict === 'pass') return `The replaces saved ${tokens.saved} ${unit}, and the fixed part did not take them back.`
    if (verdict === 'warn') {
      return fixed > tokens.surfaceMessages && replacements.length > 0
        ? `The replaces saved ${tokens.saved} ${unit}, but the system prompt and tool schemas take ${percent(fixed, request)} of the next request.`
        : 'A token count needs a look (see the warnings).'
    }
    return tokens.saved <= 0 ? 'Shortening the surface did not save context.' : 'The system prompt and tool schemas took back what the replaces saved.'
  })
}
