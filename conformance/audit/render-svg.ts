// The two pictures of the HTML report, as inline SVG built from the report alone: the timeline of the
// surface over the seqs of the log (turns, raw events, compaction brackets, each replace with the range
// it shadowed, the current surface) and the budget chart (the next request's tokens by part, and the raw
// log against the surface).
import type { AuditBracketOutcome, AuditBudget, AuditReplacement, AuditTimeline, AuditTimelineBracket, AuditTimelineTurn } from '../../generated/types/index.ts'
import { formatTime } from './format.ts'
import { percent, plural, printable } from '../wording.ts'
import { firstSeqAfter } from '../seq-search.ts'
import { windowFill } from './row-budget.ts'

const WIDTH = 1000
const GUTTER = 150
const RIGHT = 20
const LANE = 26
const REPLACEMENTS_DRAWN = 24
/** The narrowest shape a lane draws, in pixels: seqs closer than this share one. */
const LEAST_SHAPE = 2

export const OUTCOME_COLORS: Record<AuditBracketOutcome, string> = {
  completed: '#2e7d32',
  irregular: '#c62828',
  'failed-clean': '#f9a825',
  'failed-partial': '#c62828',
  'orphaned-live': '#c62828',
  'orphaned-stale': '#8d6e63',
}

const EVENT_CATEGORIES: readonly { name: string; color: string; matches: (type: string) => boolean }[] = [
  { name: 'user message', color: '#1565c0', matches: type => type === 'user/message' },
  { name: 'assistant message', color: '#6a1b9a', matches: type => type === 'assistant/message' },
  { name: 'tool result', color: '#00838f', matches: type => type === 'tool/result' },
  { name: 'compaction', color: '#ef6c00', matches: type => type.startsWith('compaction/') },
  { name: 'request header/context', color: '#455a64', matches: type => type.startsWith('request/') },
  { name: 'stream chunk', color: '#cfd8dc', matches: type => type === 'assistant/chunk' },
  { name: 'other log-only', color: '#90a4ae', matches: () => true },
]

export function escapeXml(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;')
}

/**
 * Text that may quote the log (an event type, a summary): markup escaped, and every control and format
 * character shown as its escape, as the text output does, so a crafted value cannot reorder or hide
 * what the page says. The page's own text uses it too.
 */
export const shown = (text: string): string => escapeXml(printable(text))

function text(x: number, y: number, content: string, attributes = ''): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}" ${attributes}>${shown(content)}</text>`
}

function rect(x: number, y: number, width: number, height: number, fill: string, attributes = '', tooltip?: string): string {
  const open = `<rect x="${x.toFixed(1)}" y="${y.toFixed(1)}" width="${Math.max(width, 1).toFixed(1)}" height="${height}" fill="${fill}" ${attributes}`
  return tooltip === undefined ? `${open}/>` : `${open}><title>${shown(tooltip)}</title></rect>`
}

/** Seq positions along the plot: the centre of each seq's slot. */
function scale(count: number): { x: (seq: number) => number; step: number } {
  const step = (WIDTH - GUTTER - RIGHT) / Math.max(count, 1)
  return { x: seq => GUTTER + (seq + 0.5) * step, step }
}

/** Pixels a tick label takes per digit, and between two labels, at the axis's font size; the most labels. */
const DIGIT_WIDTH = 7
const TICK_GAP = 12
const TICKS_MOST = 20

/**
 * The distance between two labelled seqs of an axis over `count` seqs: a round number (1, 2 or 5 times
 * a power of ten) that leaves each label room for its digits, so that six-digit seqs never run together.
 */
export function tickStep(count: number): number {
  const labelWidth = String(Math.max(0, count - 1)).length * DIGIT_WIDTH + TICK_GAP
  const most = Math.max(1, Math.min(TICKS_MOST, Math.floor((WIDTH - GUTTER - RIGHT) / labelWidth)))
  for (let power = 1; ; power *= 10) {
    for (const factor of [1, 2, 5]) if (Math.ceil(count / (factor * power)) <= most) return factor * power
  }
}

function axis(timeline: AuditTimeline, x: (seq: number) => number, y: number): string[] {
  const count = timeline.eventTypes.length
  const every = tickStep(count)
  const parts = [text(8, y, 'seq', 'class="lane-label"')]
  for (let seq = 0; seq < count; seq += every) parts.push(text(x(seq), y, String(seq), 'class="tick" text-anchor="middle"'))
  if (timeline.firstTime !== null && timeline.lastTime !== null) {
    parts.push(text(GUTTER, y - 14, `${formatTime(timeline.firstTime)} → ${formatTime(timeline.lastTime)}`, 'class="tick"'))
  }
  return parts
}

/**
 * Consecutive seqs grouped so that each group is at least LEAST_SHAPE pixels wide: one seq per group
 * while the plot has room, so the shapes a lane draws are bounded by the plot's width, not the log's
 * length.
 */
function groupSize(step: number): number {
  return Math.max(1, Math.ceil(LEAST_SHAPE / step))
}

/**
 * Runs of consecutive groups that hold at least one of `seqs`, as [first seq, last seq] of the groups,
 * the last group ending at `lastSeq`, the log's last.
 */
function groupRuns(seqs: readonly number[], size: number, lastSeq: number): [number, number][] {
  const groups = [...new Set(seqs.map(seq => Math.floor(seq / size)))].sort((a, b) => a - b)
  const runs: [number, number][] = []
  for (const group of groups) {
    const last = runs.at(-1)
    const end = Math.min(group * size + size - 1, lastSeq)
    if (last !== undefined && last[1] === group * size - 1) last[1] = end
    else runs.push([group * size, end])
  }
  return runs
}

/** A label for a span from `left` that is `width` pixels wide, or none when it would overflow into the next. */
function fittingLabel(left: number, width: number, y: number, label: string): string[] {
  return width >= label.length * 6 + 8 ? [text(left + 4, y, label, 'class="bar-label"')] : []
}

/**
 * Consecutive items whose seqs fall into one group of `size` seqs, in the order given: what a lane
 * draws as one shape, so that a log of many short turns or brackets draws no more shapes than the plot
 * has room for.
 */
function sharingGroups<T>(items: readonly T[], seqOf: (item: T) => number, size: number): T[][] {
  const groups: T[][] = []
  let current = Number.NaN
  for (const item of items) {
    const group = Math.floor(seqOf(item) / size)
    if (group === current) groups.at(-1)!.push(item)
    else groups.push([item])
    current = group
  }
  return groups
}

/**
 * The greatest of `endOf` over `items`, such as the last seq a run of spans reaches (a loop, as a list
 * may hold more items than a call takes arguments).
 */
function furthest<T>(items: readonly T[], endOf: (item: T) => number): number {
  let end = -Infinity
  for (const item of items) end = Math.max(end, endOf(item))
  return end
}

function turnLabel(turn: AuditTimelineTurn): string {
  return `turn ${turn.turn ?? '?'}${turn.endReason === null ? ' (open)' : ` · ${turn.endReason}`}`
}

function turnLane(timeline: AuditTimeline, x: (seq: number) => number, step: number, y: number): string[] {
  const parts = [text(8, y + 15, 'turns', 'class="lane-label"')]
  const lastSeq = timeline.eventTypes.length - 1
  for (const turns of sharingGroups(timeline.turns, turn => turn.startSeq, groupSize(step))) {
    const first = turns[0]!
    const end = furthest(turns, turn => turn.endSeq ?? lastSeq)
    const open = turns.some(turn => turn.endSeq === null)
    const left = x(first.startSeq) - step / 2
    const label = turns.length === 1 ? turnLabel(first) : `${turns.length} turns`
    const tooltip = turns.length === 1 ? label : `${turns.length} turns (turn ${first.turn ?? '?'} to ${turns.at(-1)!.turn ?? '?'}), seq ${first.startSeq}…${end}${open ? ', one or more open' : ''}`
    const width = x(end) + step / 2 - left
    parts.push(rect(left, y + 2, width, 18, '#e3f2fd', `stroke="#1565c0" ${open ? 'stroke-dasharray="4 3"' : ''} class="turn"`, tooltip))
    parts.push(...fittingLabel(left, width, y + 15, label))
  }
  return parts
}

/** The category a group of events is drawn in: the first of EVENT_CATEGORIES that any of them has (the last has every type). */
function groupColor(types: readonly string[]): string {
  return EVENT_CATEGORIES.find(category => types.some(type => category.matches(type)))!.color
}

function eventLane(timeline: AuditTimeline, x: (seq: number) => number, step: number, y: number): string[] {
  const parts = [text(8, y + 15, 'raw events', 'class="lane-label"')]
  const size = groupSize(step)
  for (let first = 0; first < timeline.eventTypes.length; first += size) {
    const types = timeline.eventTypes.slice(first, first + size)
    const last = first + types.length - 1
    const tooltip = size === 1 ? `seq ${first}: ${types[0]}` : `seq ${first}…${last}: ${[...new Set(types)].join(', ')}`
    parts.push(rect(x(first) - step / 2 + 0.5, y + 3, x(last) - x(first) + step - 1, 16, groupColor(types), 'class="event"', tooltip))
  }
  return parts
}

/** How alarming each outcome is, the most first: a shape holding several brackets takes the colour of the first. */
const OUTCOME_RANK: Record<AuditBracketOutcome, number> = {
  irregular: 0, 'failed-partial': 1, 'orphaned-live': 2, 'failed-clean': 3, 'orphaned-stale': 4, completed: 5,
}
// A record, so that the compiler asks for the rank of an outcome added to the schema.
const OUTCOME_ORDER = (Object.keys(OUTCOME_RANK) as AuditBracketOutcome[]).sort((a, b) => OUTCOME_RANK[a] - OUTCOME_RANK[b])

function bracketEnd(timeline: AuditTimeline, bracket: AuditTimelineBracket): number {
  // A bracket with no end runs to the marker that made it stale, else to the end of the log.
  return bracket.endSeq ?? firstSeqAfter(timeline.endSeeds, bracket.startSeq) ?? timeline.eventTypes.length - 1
}

/** "30 completed, 2 failed-clean": the outcomes of a group of brackets, counted, most alarming first. */
function outcomeCounts(brackets: readonly AuditTimelineBracket[]): string {
  const counts = OUTCOME_ORDER.map(outcome => [outcome, brackets.filter(bracket => bracket.outcome === outcome).length] as const)
  return counts.filter(([, count]) => count > 0).map(([outcome, count]) => `${count} ${outcome}`).join(', ')
}

function bracketLane(timeline: AuditTimeline, x: (seq: number) => number, step: number, y: number): string[] {
  const parts = [text(8, y + 15, 'compaction', 'class="lane-label"')]
  for (const brackets of sharingGroups(timeline.brackets, bracket => bracket.startSeq, groupSize(step))) {
    const first = brackets[0]!
    const end = furthest(brackets, bracket => bracketEnd(timeline, bracket))
    const left = x(first.startSeq) - step / 2
    const color = OUTCOME_COLORS[OUTCOME_ORDER.find(outcome => brackets.some(bracket => bracket.outcome === outcome))!]
    const width = x(end) + step / 2 - left
    const span = `${first.startSeq}…${brackets.length === 1 ? (first.endSeq ?? '(no end)') : end}`
    const tooltip = brackets.length === 1 ? `compaction bracket ${span}: ${first.outcome}` : `${brackets.length} compaction brackets, seq ${span}: ${outcomeCounts(brackets)}`
    parts.push(rect(left, y + 2, width, 18, color, `fill-opacity="0.25" stroke="${color}" class="bracket"`, tooltip))
    const label = brackets.length === 1 ? `${first.startSeq}…${first.endSeq ?? ' no end'} ${first.outcome}` : `${brackets.length} brackets`
    parts.push(...fittingLabel(left, width, y + 15, label))
  }
  return parts
}

function replacementLane(replacement: AuditReplacement, lastSeq: number, x: (seq: number) => number, step: number, y: number): string[] {
  const parts = [text(8, y + 15, `replace seq ${replacement.seq}`, 'class="lane-label"')]
  const size = groupSize(step)
  const spans = size === 1 ? replacement.shadowedSeqs.map((seq): [number, number] => [seq, seq]) : groupRuns(replacement.shadowedSeqs, size, lastSeq)
  for (const [first, last] of spans) parts.push(rect(x(first) - step / 2 + 1, y + 5, x(last) - x(first) + step - 2, 12, '#ef9a9a', 'stroke="#c62828" class="shadowed"'))
  // The least shadowed seq, as the greatest negated one.
  const lowest = -furthest(replacement.shadowedSeqs, seq => -seq)
  const from = x(furthest(replacement.shadowedSeqs, seq => seq))
  const to = x(replacement.seq)
  parts.push(`<line x1="${from.toFixed(1)}" y1="${y + 11}" x2="${(to - step / 2).toFixed(1)}" y2="${y + 11}" stroke="#2e7d32" stroke-width="1.5" marker-end="url(#arrow)"/>`)
  const label = `${replacement.start}…${replacement.end} (${replacement.shadowedSeqs.length} shadowed) → seq ${replacement.seq} at ${formatTime(replacement.time).slice(11, 23)}`
  parts.push(rect(to - step / 2 + 1, y + 3, step - 2, 16, '#2e7d32', 'class="replacement"', label))
  parts.push(...laneLabel([label, `${replacement.shadowedSeqs.length} shadowed`], to + step / 2 + 4, x(lowest) - step / 2 - 4, y + 15))
  return parts
}

/**
 * The first of `labels` (the longest first) that fits after the lane's last shape (from `after`) or
 * before its first (up to `before`), never over the lane's shapes or into the lane names; none when
 * none fits, since the replacing shape's tooltip, the text list and the table below say it all.
 */
function laneLabel(labels: readonly string[], after: number, before: number, baseline: number): string[] {
  for (const label of labels) {
    const width = label.length * 6
    if (after + width + 2 < WIDTH) return [text(after, baseline, label, 'class="bar-label" text-anchor="start"')]
    if (before - width >= GUTTER) return [text(before, baseline, label, 'class="bar-label" text-anchor="end"')]
  }
  return []
}

function surfaceLane(timeline: AuditTimeline, x: (seq: number) => number, step: number, y: number): string[] {
  const parts = [text(8, y + 15, 'surface now', 'class="lane-label"')]
  const size = groupSize(step)
  if (size > 1) {
    for (const [first, last] of groupRuns(timeline.finalSurface, size, timeline.eventTypes.length - 1)) parts.push(rect(x(first) - step / 2 + 1, y + 3, x(last) - x(first) + step - 2, 16, '#43a047', 'class="surface-node"'))
    return parts
  }
  timeline.finalSurface.forEach((seq, position) => {
    parts.push(rect(x(seq) - step / 2 + 1, y + 3, step - 2, 16, '#43a047', 'class="surface-node"'))
    if (step >= 12) parts.push(text(x(seq), y + 15, String(position + 1), 'class="node-position" text-anchor="middle"'))
  })
  return parts
}

interface MarkerLabel {
  x: number
  label: string
  anchor: 'start' | 'middle' | 'end'
}

/** The labels of one row of markers, each drawn only where it clears the one drawn before it. */
function spacedLabels(labels: readonly MarkerLabel[], y: number, classes: string): string[] {
  const parts: string[] = []
  let clearFrom = -Infinity
  for (const { x, label, anchor } of labels) {
    const width = label.length * 6
    const left = anchor === 'start' ? x : anchor === 'middle' ? x - width / 2 : x - width
    if (left < clearFrom) continue
    parts.push(text(x, y, label, `class="${classes}" text-anchor="${anchor}"`))
    clearFrom = left + width + 6
  }
  return parts
}

function markerLine(x: number, top: number, bottom: number, attributes: string, tooltip: string): string {
  return `<line x1="${x.toFixed(1)}" y1="${top}" x2="${x.toFixed(1)}" y2="${bottom}" ${attributes}><title>${shown(tooltip)}</title></line>`
}

/** Lines across the lanes where a session/end-seed stands and where a model call failed, one per group of seqs. */
function markerLines(timeline: AuditTimeline, x: (seq: number) => number, step: number, top: number, bottom: number): string[] {
  const size = groupSize(step)
  const parts: string[] = []
  const seedLabels: MarkerLabel[] = []
  for (const seeds of sharingGroups(timeline.endSeeds, seq => seq, size)) {
    const label = seeds.length === 1 ? `end-seed ${seeds[0]}` : `${seeds.length} end-seeds`
    parts.push(markerLine(x(seeds[0]!), top, bottom, 'stroke="#1565c0" stroke-dasharray="5 4" class="end-seed"', seeds.length === 1 ? label : `${label}, seq ${seeds[0]}…${seeds.at(-1)}`))
    const nearRight = x(seeds[0]!) + 3 + label.length * 6 > WIDTH
    seedLabels.push({ x: nearRight ? x(seeds[0]!) - 3 : x(seeds[0]!) + 3, label, anchor: nearRight ? 'end' : 'start' })
  }
  const failureLabels: MarkerLabel[] = []
  for (const failures of sharingGroups(timeline.modelFailures, failure => failure.seq, size)) {
    const first = failures[0]!
    const label = failures.length === 1 ? `model call failed: ${first.code ?? 'error'}` : `${failures.length} model calls failed`
    parts.push(markerLine(x(first.seq), top, bottom, 'stroke="#c62828" stroke-dasharray="2 3" class="model-failure"', failures.length === 1 ? `${label} (seq ${first.seq})` : `${label}, seq ${first.seq}…${failures.at(-1)!.seq}`))
    failureLabels.push({ x: x(first.seq), label, anchor: 'middle' })
  }
  return [...parts, ...spacedLabels(seedLabels, top - 4, 'marker-label'), ...spacedLabels(failureLabels, bottom + 12, 'marker-label failure')]
}

const LEGEND_ENTRIES = [
  ...EVENT_CATEGORIES.map(category => [category.name, category.color] as const),
  ['shadowed node', '#ef9a9a'] as const,
  ['replacing node', '#2e7d32'] as const,
  ['current surface node', '#43a047'] as const,
]

/** The legend, wrapped onto as many lines as it needs; returns its parts and its height. */
function legend(y: number): { parts: string[]; height: number } {
  const parts: string[] = []
  let left = GUTTER
  let top = y
  for (const [name, color] of LEGEND_ENTRIES) {
    const width = 26 + name.length * 6.6
    if (left + width > WIDTH) {
      left = GUTTER
      top += 16
    }
    parts.push(rect(left, top, 10, 10, color), text(left + 14, top + 9, name, 'class="legend"'))
    left += width
  }
  return { parts, height: top - y + 16 }
}

export function timelineSvg(timeline: AuditTimeline, replacements: readonly AuditReplacement[]): string {
  const { x, step } = scale(timeline.eventTypes.length)
  // The latest replaces are drawn: they made the surface of today.
  const drawn = replacements.slice(-REPLACEMENTS_DRAWN)
  const lanesTop = 40
  const lanes = [
    (y: number) => turnLane(timeline, x, step, y),
    (y: number) => eventLane(timeline, x, step, y),
    (y: number) => bracketLane(timeline, x, step, y),
    ...drawn.map(replacement => (y: number) => replacementLane(replacement, timeline.eventTypes.length - 1, x, step, y)),
    (y: number) => surfaceLane(timeline, x, step, y),
  ]
  const bottom = lanesTop + lanes.length * LANE
  const key = legend(bottom + 34)
  const height = bottom + 34 + key.height
  const title = `Timeline of the surface: ${plural(timeline.eventTypes.length, 'event')}, ${plural(replacements.length, 'replace')}, ${plural(timeline.finalSurface.length, 'node')} on the current surface`
  return [
    `<svg id="timeline" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="100%" role="img" aria-label="${escapeXml(title)}" aria-describedby="timeline-text">`,
    `<title>${escapeXml(title)}</title>`,
    '<defs><marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z" fill="#2e7d32"/></marker></defs>',
    ...axis(timeline, x, 28),
    ...lanes.flatMap((lane, index) => lane(lanesTop + index * LANE)),
    ...markerLines(timeline, x, step, lanesTop, bottom),
    ...(replacements.length > drawn.length ? [text(GUTTER, bottom + 26, `${replacements.length - drawn.length} earlier replaces are listed in the table below`, 'class="tick"')] : []),
    ...key.parts,
    '</svg>',
  ].join('\n')
}

// ---- the budget chart -----------------------------------------------------------------------------

const BUDGET_PARTS = [
  { key: 'system', name: 'system prompt', color: '#1a237e' },
  { key: 'tools', name: 'tool schemas', color: '#ef6c00' },
  { key: 'messages', name: 'messages', color: '#43a047' },
] as const

interface StackedBar {
  label: string
  parts: Record<(typeof BUDGET_PARTS)[number]['key'], number>
}

function stackedBar(bar: StackedBar, y: number, full: number, unit: string): string[] {
  const plot = WIDTH - GUTTER - 160
  const total = BUDGET_PARTS.reduce((sum, part) => sum + bar.parts[part.key], 0)
  const parts = [text(8, y + 16, bar.label, 'class="lane-label"')]
  let left = GUTTER
  for (const part of BUDGET_PARTS) {
    const value = bar.parts[part.key]
    const width = full === 0 ? 0 : (value / full) * plot
    if (value > 0) parts.push(rect(left, y + 2, width, 20, part.color, `class="budget-segment" data-part="${part.key}"`, `${part.name}: ${value} ${unit}`))
    left += width
  }
  parts.push(text(left + 6, y + 16, `${total} ${unit}`, 'class="bar-label"'))
  return parts
}

function pairBar(label: string, raw: number, surface: number, y: number, unit: string): string[] {
  const plot = WIDTH - GUTTER - 260
  const full = Math.max(raw, surface, 1)
  return [
    text(8, y + 13, label, 'class="lane-label"'),
    rect(GUTTER, y, (raw / full) * plot, 8, '#90a4ae', 'class="raw-bar"'),
    text(GUTTER + (raw / full) * plot + 6, y + 8, `raw log: ${raw} ${unit}`, 'class="bar-label"'),
    rect(GUTTER, y + 10, (surface / full) * plot, 8, '#43a047', 'class="surface-bar"'),
    text(GUTTER + (surface / full) * plot + 6, y + 18, `surface: ${surface} ${unit}`, 'class="bar-label"'),
  ]
}

export function budgetSvg(budget: AuditBudget, unit: string): string {
  const { tokens } = budget
  const transcript: StackedBar = { label: 'without replaces', parts: { system: tokens.systemPrompt, tools: tokens.toolSchemas, messages: tokens.transcriptMessages } }
  // With no request header in force only the surface messages of the next request are known.
  const current: StackedBar = { label: tokens.headerInForce ? 'next request' : 'messages only', parts: { system: tokens.systemPrompt, tools: tokens.toolSchemas, messages: tokens.surfaceMessages } }
  const full = Math.max(...[transcript, current].map(bar => bar.parts.system + bar.parts.tools + bar.parts.messages))
  const fixed = tokens.systemPrompt + tokens.toolSchemas
  const request = fixed + tokens.surfaceMessages
  const window = tokens.contextWindow === null ? '' : `; ${windowFill(tokens, request, 'window')}`
  const title = !tokens.headerInForce ? `Budget: no request header is in force, so the system prompt and tool schemas of the next request are unknown; its surface messages: ${tokens.surfaceMessages} ${unit}${window}`
    : request === 0 ? 'Budget: the next request holds nothing yet' : `Budget: system prompt and tool schemas take ${percent(fixed, request)} of the next request (${request} ${unit})${window}`
  const legendParts = BUDGET_PARTS.flatMap((part, index) => [rect(GUTTER + index * 150, 4, 10, 10, part.color), text(GUTTER + index * 150 + 14, 13, part.name, 'class="legend"')])
  return [
    `<svg id="budget-chart" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} 190" width="100%" role="img" aria-label="${escapeXml(title)}">`,
    `<title>${escapeXml(title)}</title>`,
    ...legendParts,
    ...stackedBar(transcript, 22, full, unit),
    ...stackedBar(current, 50, full, unit),
    text(GUTTER, 92, title, 'class="tick"'),
    ...pairBar('events vs nodes', budget.rawEvents, budget.surfaceNodes, 106, 'items'),
    ...pairBar('bytes', budget.rawBytes, budget.surfaceMessageBytes, 134, 'bytes'),
    text(GUTTER, 172, `surface bytes are the derived messages as JSON; raw bytes are the stored artifact`, 'class="tick"'),
    '</svg>',
  ].join('\n')
}
