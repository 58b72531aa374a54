// The audit report as one self-contained HTML page: inline CSS, inline SVG for the timeline and the
// budget chart, no script and no external resource, so it opens the same from a file, a CI artifact or
// a mail attachment.
import type { AuditEvidence, AuditEvidenceMark, AuditReplacement, AuditReport, AuditRow, AuditTimeline } from '../../generated/types/index.ts'
import { formatTime, KIND_LABELS, logFacts, refusalNote, sessionIdText, tokenizerLine, tokenUnit } from './format.ts'
import { budgetSvg, escapeXml, OUTCOME_COLORS, shown, timelineSvg } from './render-svg.ts'
import { timelineText } from './timeline-text.ts'
import { printableLines, QUOTE_MOST, shortened } from '../wording.ts'

/** A text of many lines for a <pre>: as `shown`, its line feeds kept. */
const shownLines = (text: string): string => escapeXml(printableLines(text))

/** A text of a replacement card, in a box that scrolls when long; focusable, so a keyboard can scroll it. */
const textBox = (text: string): string => `<pre tabindex="0">${shownLines(text)}</pre>`

const STYLE = `
:root { color-scheme: light; --pass: #2e7d32; --fail: #c62828; --warn: #9a5c00; --human: #4527a0; --info: #546e7a; }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; color: #1c2329; background: #f6f7f9; }
header, main, footer { max-width: 1120px; margin: 0 auto; padding: 0 24px; }
header { padding-top: 24px; }
h1 { font-size: 26px; margin: 0 0 4px; }
h2 { font-size: 20px; margin: 0 0 8px; }
h3 { font-size: 16px; margin: 16px 0 6px; }
.file { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 13px; word-break: break-all; margin: 0; }
.meta { margin: 2px 0; color: #455a64; overflow-wrap: anywhere; }
.scroll { overflow-x: auto; }
.estimate { color: var(--warn); font-weight: 600; }
section { background: #fff; border: 1px solid #dde2e7; border-radius: 8px; padding: 16px 20px; margin: 16px 0; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid #e6e9ec; vertical-align: top; }
th { font-size: 13px; color: #546e7a; font-weight: 600; }
.verdict { display: inline-block; min-width: 4.2em; text-align: center; padding: 1px 8px; border-radius: 10px; color: #fff; font-weight: 700; font-size: 13px; text-transform: uppercase; letter-spacing: .03em; }
.verdict-pass { background: var(--pass); } .verdict-fail { background: var(--fail); } .verdict-warn { background: var(--warn); } .verdict-human { background: var(--human); }
.row-title a { color: inherit; font-weight: 600; text-decoration: none; }
.summary { font-weight: 500; margin: 4px 0; }
.checked, .human-note { font-size: 13px; color: #546e7a; margin: 4px 0; }
.human-note { color: var(--human); }
ul.evidence { list-style: none; padding: 0; margin: 8px 0; }
ul.evidence li { padding: 3px 0 3px 64px; position: relative; overflow-wrap: anywhere; }
ul.evidence .mark { position: absolute; left: 0; width: 56px; font-size: 11px; font-weight: 700; text-align: center; border-radius: 4px; padding: 1px 0; top: 5px; }
.mark-pass .mark { color: var(--pass); border: 1px solid var(--pass); } .mark-fail .mark { color: #fff; background: var(--fail); }
.mark-warn .mark { color: #fff; background: var(--warn); } .mark-human .mark { color: #fff; background: var(--human); } .mark-info .mark { color: var(--info); border: 1px solid #b0bec5; }
.seq { font-family: ui-monospace, "DejaVu Sans Mono", monospace; font-size: 12px; color: #546e7a; }
.replacement-card { border-top: 1px solid #e6e9ec; margin-top: 12px; padding-top: 8px; content-visibility: auto; contain-intrinsic-size: auto 320px; }
details.more { margin: 8px 0; } details.more > summary { cursor: pointer; color: #37474f; font-weight: 600; }
.texts { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.texts h4 { margin: 4px 0; font-size: 13px; color: #546e7a; }
pre { white-space: pre-wrap; word-break: break-word; font: 12.5px/1.45 ui-monospace, "DejaVu Sans Mono", monospace; background: #f3f5f7; border: 1px solid #e0e4e8; border-radius: 6px; padding: 8px; margin: 0 0 8px; max-height: 28em; overflow: auto; }
.shadowed pre { border-left: 4px solid #ef9a9a; } .replacing pre { border-left: 4px solid #2e7d32; }
.terms code { background: #fff3e0; padding: 0 4px; border-radius: 3px; margin-right: 4px; }
/* A bracket outcome's colour beside its word: the word alone is legible, whatever the colour. */
.swatch { display: inline-block; width: 10px; height: 10px; border-radius: 2px; margin-right: 6px; }
svg text { font: 11px system-ui, sans-serif; fill: #263238; }
svg .lane-label { font-weight: 600; fill: #37474f; } svg .tick { fill: #546e7a; } svg .legend { fill: #37474f; }
svg .bar-label { font-size: 10.5px; }
svg .node-position { fill: #fff; font-size: 10px; font-weight: 700; } svg .marker-label { font-size: 10px; fill: #1565c0; } svg .failure { fill: #c62828; }
footer { font-size: 12px; color: #546e7a; padding-bottom: 24px; }
@media (max-width: 720px) {
  header, main, footer { padding: 0 10px; } section { padding: 12px; }
  .texts { grid-template-columns: 1fr; }
  #timeline, #budget-chart { min-width: 760px; }
}
@media print {
  body { background: #fff; }
  section { break-inside: auto; } h2, h3, h4 { break-after: avoid; } ul.evidence li, tr { break-inside: avoid; }
  .verdict, .mark, .swatch, svg { print-color-adjust: exact; -webkit-print-color-adjust: exact; }
  pre { max-height: none; overflow: visible; }
  .replacement-card { content-visibility: visible; }
}
@media (forced-colors: active) {
  svg, .swatch { forced-color-adjust: none; } svg { background: #fff; }
  .verdict, ul.evidence .mark { border: 1px solid CanvasText; }
}
`

/** A box that scrolls sideways what is wider than a narrow screen; focusable, so a keyboard can scroll it. */
function scrollBox(label: string, content: string): string {
  return `<div class="scroll" tabindex="0" role="region" aria-label="${shown(label)}">${content}</div>`
}

function verdictBadge(verdict: string): string {
  return `<span class="verdict verdict-${shown(verdict)}" data-verdict="${shown(verdict)}">${shown(verdict)}</span>`
}

function overviewTable(report: AuditReport): string {
  const rows = report.rows.map((row, index) => `<tr data-row="${row.id}"><td>${index + 1}</td><td class="row-title"><a href="#row-${row.id}">${shown(row.title)}</a></td><td>${verdictBadge(row.verdict)}</td><td>${shown(row.summary)}</td></tr>`)
  return `<section id="verdicts"><h2>The seven rows of the acceptance table</h2>
${scrollBox('The seven rows', `<table class="verdicts"><thead><tr><th>#</th><th>Row</th><th>Verdict</th><th>Summary</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`)}</section>`
}

/**
 * How many entries of a long list (the table of replaces, a row's evidence, the replacement cards) the
 * page shows; the rest wait in a closed <details>. The page holds every entry, but a browser that lays
 * out a hundred thousand of them at once is busy for minutes before it shows anything.
 */
export const ENTRIES_SHOWN = 200

/** The most entries one closed <details> holds: opening it lays out no more than these. */
export const ENTRIES_PER_FOLD = 1000

/**
 * The first ENTRIES_SHOWN entries as `render` writes them, then the rest closed under `summary(rest)`,
 * or, past ENTRIES_PER_FOLD of them, in several closed folds, each summed up with the entries it holds.
 */
function longList<T>(entries: readonly T[], render: (part: readonly T[]) => string, summary: (rest: readonly T[]) => string): string {
  if (entries.length <= ENTRIES_SHOWN) return render(entries)
  const folds: string[] = []
  for (let start = ENTRIES_SHOWN; start < entries.length; start += ENTRIES_PER_FOLD) {
    const part = entries.slice(start, start + ENTRIES_PER_FOLD)
    const which = entries.length - ENTRIES_SHOWN <= ENTRIES_PER_FOLD ? '' : ` (entries ${start + 1} to ${start + part.length} of ${entries.length})`
    folds.push(`<details class="more"><summary>${shown(summary(part))}${which}</summary>
${render(part)}
</details>`)
  }
  return [render(entries.slice(0, ENTRIES_SHOWN)), ...folds].join('\n')
}

function replacementRows(replacements: readonly AuditReplacement[], unit: string): string {
  const rows = replacements.map(replacement => `<tr><td class="seq">${replacement.seq}</td><td>${shown(formatTime(replacement.time))}</td><td>${shown(KIND_LABELS[replacement.kind])}</td><td class="seq">${replacement.start}…${replacement.end}</td><td class="seq">${replacement.shadowedSeqs.join(', ')}</td><td>${replacement.bracketOutcome === null ? '—' : `<span class="swatch" style="background:${OUTCOME_COLORS[replacement.bracketOutcome]}" aria-hidden="true"></span>${shown(replacement.bracketOutcome)}`}</td><td>${replacement.shadowedTokens} → ${replacement.tokens} ${shown(unit)}</td></tr>`)
  return scrollBox('Replaces', `<table class="replacements"><thead><tr><th>seq</th><th>when</th><th>what</th><th>range (surface order)</th><th>shadowed</th><th>bracket</th><th>size</th></tr></thead><tbody>
${rows.join('\n')}
</tbody></table>`)
}

function replacementTable(replacements: readonly AuditReplacement[], unit: string): string {
  if (replacements.length === 0) return '<p>No replace: the surface only ever grew by appends.</p>'
  return longList(replacements, part => replacementRows(part, unit), rest => `${rest.length} more replaces`)
}

/** The timeline in words, which the picture names as its description. */
function timelineTextList(timeline: AuditTimeline, replacements: readonly AuditReplacement[]): string {
  const lines = timelineText(timeline, replacements).map(line => `<li>${escapeXml(line)}</li>`).join('\n')
  return `<details class="timeline-text"><summary>The timeline as text</summary><ul id="timeline-text">\n${lines}\n</ul></details>`
}

function timelineSection(report: AuditReport): string {
  const body = report.timeline === null
    ? '<p>The log does not load, so its surface cannot be drawn.</p>'
    : `<p>Each column is one event, by seq (on a long log, a few neighbouring events share one). A replace lane shows the nodes it took off the surface (red) and the event that took their place (green); the last lane is the surface the next request is built from, numbered in surface order where there is room. A range runs from the first to the last node it replaced in surface order, which after earlier replaces need not be seq order.</p>
${scrollBox('Timeline of the surface', timelineSvg(report.timeline, report.replacements))}
${timelineTextList(report.timeline, report.replacements)}
${replacementTable(report.replacements, tokenUnit(report))}`
  return `<section id="timeline-section"><h2>Timeline of the surface</h2>${body}</section>`
}

function replacementCard(replacement: AuditReplacement, unit: string): string {
  const shadowed = replacement.shadowed.map(node => `<h4>seq ${node.seq} · ${shown(node.type)} · ${node.tokens} ${shown(unit)}</h4>${textBox(node.text)}`).join('\n')
  const terms = replacement.absentTerms.length === 0 ? '' : `<p class="terms">Not mentioned by the replacement (a reading aid, not a verdict): ${replacement.absentTerms.map(term => `<code>${shown(term)}</code>`).join(' ')}</p>`
  return `<div class="replacement-card" data-seq="${replacement.seq}">
<h3>seq ${replacement.seq}: ${shown(KIND_LABELS[replacement.kind])} replaced ${replacement.start}…${replacement.end} at ${shown(formatTime(replacement.time))}</h3>
<div class="texts"><div class="shadowed"><h4>What it shadowed</h4>${shadowed}</div>
<div class="replacing"><h4>What took its place (${replacement.tokens} ${shown(unit)})</h4>${textBox(replacement.text)}</div></div>
${terms}</div>`
}

function replacementCards(replacements: readonly AuditReplacement[], unit: string): string {
  return longList(replacements, part => part.map(replacement => replacementCard(replacement, unit)).join('\n'), rest => `${rest.length} more replacements, each with what it shadowed and what took its place`)
}

const MARKS_BY_WEIGHT: readonly AuditEvidenceMark[] = ['fail', 'warn', 'human', 'pass', 'info']

/** "3 more items: 1 fail, 2 human", the marks the most alarming first. */
function moreEvidence(rest: readonly AuditEvidence[]): string {
  const counts = MARKS_BY_WEIGHT
    .map(mark => ({ mark, count: rest.filter(item => item.mark === mark).length }))
    .filter(({ count }) => count > 0)
    .map(({ mark, count }) => `${count} ${mark}`)
  return `${rest.length} more items: ${counts.join(', ')}`
}

function evidenceList(evidence: readonly AuditEvidence[]): string {
  const items = (part: readonly AuditEvidence[]): string => `<ul class="evidence">${part.map(item => `<li class="mark-${item.mark}"><span class="mark">${item.mark.toUpperCase()}</span>${shown(item.text)}${item.requirements === undefined ? '' : ` <span class="seq">${shown(item.requirements.join(', '))}</span>`}</li>`).join('\n')}</ul>`
  return longList(evidence, items, moreEvidence)
}

function rowSection(report: AuditReport, row: AuditRow, index: number): string {
  const extra = row.id === 'constraint-preservation'
    ? replacementCards(report.replacements, tokenUnit(report))
    : row.id === 'budget' && report.budget !== null ? scrollBox('Budget chart', budgetSvg(report.budget, tokenUnit(report))) : ''
  return `<section class="row" id="row-${row.id}" data-row="${row.id}">
<h2>${index + 1}. <span class="row-name">${shown(row.title)}</span> ${verdictBadge(row.verdict)}</h2>
<p class="summary">${shown(row.summary)}</p>
<p class="checked">Checked by: ${shown(row.checkedBy)}</p>
${evidenceList(row.evidence)}
${extra}
${row.needsHuman === null ? '' : `<p class="human-note">Needs a person: ${shown(row.needsHuman)}</p>`}
</section>`
}

export function renderHtml(report: AuditReport): string {
  const estimate = report.tokenizer.kind === 'estimate' ? ' estimate' : ''
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Audit: ${shown(shortened(report.log.sessionId ?? report.log.file, QUOTE_MOST))}</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<h1>Session log audit</h1>
<p class="file">${shown(report.log.file)}</p>
<p class="meta">session <bdi>${escapeXml(sessionIdText(report))}</bdi> · ${shown(logFacts(report))}</p>
<p class="meta tokenizer${estimate}">${shown(tokenizerLine(report))}</p>
<p class="meta overall">Overall: ${verdictBadge(report.overall)}${shown(refusalNote(report))}</p>
</header>
<main>
${overviewTable(report)}
${timelineSection(report)}
${report.rows.map((row, index) => rowSection(report, row, index)).join('\n')}
</main>
<footer>Written by ${shown(report.generator.name)} ${shown(report.generator.version)} from the audit report (schemas/audit-report.schema.json). The page is self-contained: no script, no external resource.</footer>
</body>
</html>
`
}
