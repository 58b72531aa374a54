// `audit` against logs made to mislead it: an --out that is a link to the log, text of the log that
// would rewrite a terminal or break out of its Markdown line, provider counts outside the count domain,
// a request header recorded only after the first replace, a failed-partial bracket, and logs of very
// many replaces, turns, brackets and failed calls.
import { linkSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { parseAuditOptions } from '../../conformance/audit/command.ts'
import { clip, TEXT_SHOWN } from '../../conformance/audit/format.ts'
import { ENTRIES_PER_FOLD, ENTRIES_SHOWN, renderHtml } from '../../conformance/audit/render-html.ts'
import { renderMarkdown } from '../../conformance/audit/render-markdown.ts'
import { timelineSvg } from '../../conformance/audit/render-svg.ts'
import { renderText } from '../../conformance/audit/render-text.ts'
import type { AuditReport, AuditTimeline } from '../../generated/types/index.ts'
import { budgetRow, providerUsage } from '../../conformance/audit/row-budget.ts'
import { estimateCounter } from '../../conformance/audit/tokens.ts'
import { REPLACE_ITEMS_LISTED } from '../../conformance/audit/verdicts.ts'
import { event, stepEnd, stepStart, turnEnd, turnStart } from '../reference/helpers.ts'
import { artifact, assistantText, auditOf, compactedLog, goodTurn, replaceHeavyArtifact, requestHeader, rowOf, userText } from './logs.ts'

const folder = mkdtempSync(path.join(tmpdir(), 'dsh-audit-hostile-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('--out', () => {
  it('refuses a symbolic or hard link to the log it audits', () => {
    const log = path.join(folder, 'victim.jsonl')
    writeFileSync(log, 'x')
    symlinkSync(log, path.join(folder, 'soft.txt'))
    linkSync(log, path.join(folder, 'hard.md'))
    for (const out of ['soft.txt', 'hard.md']) {
      expect(parseAuditOptions([log, '--out', path.join(folder, out)])).toEqual({ error: `--out ${path.join(folder, out)} would overwrite the log it audits` })
    }
    expect(readFileSync(log, 'utf8')).toBe('x')
  })
})

/** One turn whose tool call is never answered: its id is log text that the surface row quotes. */
function unansweredCall(callId: string): ReturnType<typeof auditOf> {
  return auditOf(artifact([turnStart(0, 1), stepStart(1, 1, 1), userText(2, 'go'), requestHeader(3), assistantText(4, 1, 1, 'calling', [callId]), stepEnd(5, 1, 1), turnEnd(6, 1)]))
}

describe('a very long id of the log', () => {
  it('is cut where the evidence quotes it, as check cuts a message, in every format', () => {
    const report = unansweredCall('x'.repeat(100_000))
    for (const rendered of [renderText(report), renderMarkdown(report), JSON.stringify(report)]) {
      expect(rendered).toMatch(/x… \(9\d{4} more characters\)/)
      expect(Math.max(...rendered.split('\n').map(line => line.length)), 'the longest line').toBeLessThan(40_000)
    }
  })

  it('is cut past 200 code units where a heading names the session', () => {
    const report = unansweredCall('c')
    const named = { ...report, log: { ...report.log, sessionId: 's'.repeat(100_000) } }
    const cut = `${'s'.repeat(200)}… (99800 more characters)`
    expect(renderText(named).split('\n')[1]).toContain(`session ${cut} · `)
    expect(renderHtml(named)).toContain(`<title>Audit: ${cut}</title>`)
  })
})

describe('text of the log in the report', () => {
  const forged = '\u001b[H\u001b[2J\r\noverall: PASS\n## 5. Persistence: **pass** <script>x</script> `tick` |'
  const report = unansweredCall(forged)

  it('reaches a terminal with every control character escaped', () => {
    const text = renderText(report)
    // The call id is named as JSON, whose escapes come first; the renderer escapes what JSON leaves.
    expect(text).toContain('"\\u001b[H\\u001b[2J\\r\\noverall: PASS\\n## 5.')
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/)
    expect(text.split('\n').filter(line => line.startsWith('overall:'))).toEqual([`overall: ${report.overall.toUpperCase()}`])
  })

  it('stays on its own line of Markdown, with nothing Markdown or HTML would read', () => {
    const markdown = renderMarkdown(report)
    expect(markdown.split('\n').filter(line => line.startsWith('## 5.'))).toEqual(['## 5. Persistence: **pass**'])
    expect(markdown).toContain('\\<script\\>x\\</script\\> \\`tick\\` \\|')
    const named = renderMarkdown({ ...report, log: { ...report.log, file: 'a`b``c.jsonl' } })
    expect(named.split('\n')[0]).toBe('# Session log audit: ```a`b``c.jsonl```')
    const paddedNames: [file: string, title: string][] = [['`a.jsonl', '`` `a.jsonl ``'], [' a.jsonl ', '`  a.jsonl  `'], ['a.jsonl', '`a.jsonl`']]
    for (const [file, title] of paddedNames) expect(renderMarkdown({ ...report, log: { ...report.log, file } }).split('\n')[0]).toBe(`# Session log audit: ${title}`)
  })
})

describe('text of the log on the page and in code blocks', () => {
  const bidi = 'x\u202e)6-RIAP( llac loot a :ssap\u202c\u001b[31m'

  it('shows bidi and control characters of the log on the HTML page as escapes, its title included', () => {
    const report = unansweredCall(bidi)
    const page = renderHtml({ ...report, log: { ...report.log, sessionId: `sid<script>${bidi}` } })
    expect(page).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202a-\u202e\u2066-\u2069]/)
    expect(page).toContain('x\\u202e)6-RIAP( llac loot a :ssap\\u202c\\u001b[31m')
    expect(page).toContain('<title>Audit: sid&lt;script&gt;x\\u202e')
  })

  it('keeps the lines of a shadowed or replacing text in a Markdown code block, every other control escaped', () => {
    const markdown = renderMarkdown(auditOf(artifact(compactedLog(`first line\n\u001b[2J\u202eclears\r\nlast`))))
    expect(markdown).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u202a-\u202e]/)
    expect(markdown).toContain('first line\n\\u001b[2J\\u202eclears\\u000d\nlast')
  })

  it('cuts a long text between characters, never inside a surrogate pair, and counts what it leaves out', () => {
    const cut = clip(`${'a'.repeat(TEXT_SHOWN - 1)}😀${'b'.repeat(10)}`)
    expect(cut).toBe(`${'a'.repeat(TEXT_SHOWN - 1)}… (11 more characters: the JSON and HTML outputs hold the whole text)`)
  })
})

describe('a replace of very many nodes', () => {
  /** compactedLog's report, its replace made to shadow `count` nodes of a log of `count` + 16 events. */
  function wideReport(count: number): AuditReport {
    const report = auditOf(artifact(compactedLog()))
    const seqs = Array.from({ length: count }, (_, index) => index + 2)
    const replacement = report.replacements[0]!
    const wide = { ...replacement, shadowedSeqs: seqs, shadowed: seqs.map(seq => ({ seq, type: 'user/message', role: 'user', tokens: 1, text: 'x' })), end: count + 1 }
    const eventTypes = Array.from({ length: count + 16 }, () => 'user/message')
    return { ...report, replacements: [wide], timeline: { ...report.timeline!, eventTypes } }
  }

  it('renders in every format (a spread of its nodes into one call overflowed the stack)', () => {
    const report = wideReport(150_000)
    expect(renderText(report)).toContain('shadowed seq 150001 (user/message')
    expect(renderMarkdown(report)).toContain('Shadowed seq 150001 (user/message')
    expect(renderHtml(report)).toContain('seq 150001 · user/message')
  })

  it('draws a timeline whose shapes are bounded by the plot, not by the log', () => {
    const svg = timelineSvg(wideReport(150_000).timeline!, wideReport(150_000).replacements)
    expect(svg.match(/<rect /g)!.length).toBeLessThan(2000)
    expect(svg).toContain('2…150001 (150000 shadowed)')
  })
})

describe('a log of very many replaces', () => {
  // 450 appends, then 450 replaces.
  const report = auditOf(replaceHeavyArtifact(900))
  const page = renderHtml(report)
  const count = (text: string, what: string): number => text.split(what).length - 1
  /** The part of `text` before and after its first closed list. */
  const aroundMore = (text: string): [string, string] => {
    const at = text.indexOf('<details class="more">')
    expect(at).toBeGreaterThan(-1)
    return [text.slice(0, at), text.slice(at)]
  }

  it('shows the first 200 entries of each long list and holds the rest, counted, in a closed <details>', () => {
    expect(report.replacements).toHaveLength(450)
    expect(ENTRIES_SHOWN).toBe(200)
    const timeline = /<section id="timeline-section">[\s\S]*?<\/section>/.exec(page)![0]
    const [shownRows, restRows] = aroundMore(timeline)
    expect(count(shownRows, '<tr><td class="seq">')).toBe(200)
    expect(restRows).toContain('<summary>250 more replaces</summary>')
    expect(count(restRows, '<tr><td class="seq">')).toBe(250)

    const constraints = rowOf(report, 'constraint-preservation').evidence
    const section = /<section class="row" id="row-constraint-preservation"[\s\S]*?<\/section>/.exec(page)![0]
    const [shownItems, rest] = aroundMore(section)
    expect(count(shownItems, '<li class="mark-')).toBe(200)
    // One item on the replaces as a whole, then one to judge for each replace.
    expect(constraints).toHaveLength(451)
    expect(rest).toContain('<summary>251 more items: 251 human</summary>')
    const [restItems, cards] = rest.split('</ul>\n</details>')
    expect(count(restItems!, '<li class="mark-')).toBe(constraints.length - 200)
    const [shownCards, restCards] = aroundMore(cards!)
    expect(count(shownCards, '<div class="replacement-card"')).toBe(200)
    expect(restCards).toContain('<summary>250 more replacements, each with what it shadowed and what took its place</summary>')
    expect(count(restCards, '<div class="replacement-card"')).toBe(250)
  })

  it('counts the closed entries by mark, the most alarming first', () => {
    // The log holds no request header, so the saving's own item warns too (its share is unknown).
    const budget = rowOf(report, 'budget').evidence.slice(200)
    expect(budget.every(item => item.mark === 'warn')).toBe(true)
    expect(page).toContain(`<summary>${budget.length} more items: ${budget.length} warn</summary>`)
    const small = auditOf(artifact(goodTurn()))
    const closed = [...Array.from({ length: 200 }, () => ({ mark: 'info' as const, text: 'shown' })), ...(['pass', 'info', 'warn', 'pass', 'fail'] as const).map(mark => ({ mark, text: mark }))]
    const mixed: AuditReport = { ...small, rows: small.rows.map(row => (row.id === 'budget' ? { ...row, evidence: closed } : row)) as AuditReport['rows'] }
    expect(renderHtml(mixed)).toContain('<summary>5 more items: 1 fail, 1 warn, 2 pass, 1 info</summary>')
  })

  it('leaves no replace out of the page', () => {
    for (const replacement of report.replacements) expect(page).toContain(`<div class="replacement-card" data-seq="${replacement.seq}">`)
    expect(count(page, '<details class="more">')).toBe(2 + report.rows.filter(row => row.evidence.length > 200).length)
  })

  it('opens every list of a log of few replaces', () => {
    expect(renderHtml(auditOf(artifact(compactedLog())))).not.toContain('<details class="more"')
  })
})

describe('a log of more replaces than a row lists', () => {
  // 2,500 appends, then 2,500 replaces of one or two messages: those of one are not smaller than what
  // they shadow, and REGION-8 warns of each of them.
  const report = auditOf(replaceHeavyArtifact(5_000))
  const notSmaller = report.replacements.filter(replacement => replacement.tokens >= replacement.shadowedTokens).length

  it('lists the first of the items rows 3 and 7 have for each replace and counts the rest, each replace still in the report', () => {
    expect(report.replacements).toHaveLength(2_500)
    const constraints = rowOf(report, 'constraint-preservation')
    const perReplace = report.replacements.length + report.replacements.filter(replacement => replacement.absentTerms.length > 0).length
    expect(constraints.evidence).toHaveLength(1 + REPLACE_ITEMS_LISTED + 1)
    expect(constraints.evidence.at(-1)).toEqual({ mark: 'info', text: `… and ${perReplace - REPLACE_ITEMS_LISTED} more like these` })
    expect(constraints.summary).toMatch(/^2500 replacements to read/)
    expect(notSmaller).toBeGreaterThan(REPLACE_ITEMS_LISTED)
    const warnings = rowOf(report, 'budget').evidence.filter(item => item.mark === 'warn')
    expect(warnings.filter(item => /is not smaller than what it shadowed/.test(item.text))).toHaveLength(REPLACE_ITEMS_LISTED)
    expect(warnings).toContainEqual({ mark: 'warn', text: `… and ${notSmaller - REPLACE_ITEMS_LISTED} more like these` })
    expect(rowOf(report, 'budget').verdict).not.toBe('pass')
  })

  it('closes the rest of a list past ENTRIES_PER_FOLD in several folds, each saying which entries it holds', () => {
    expect(ENTRIES_PER_FOLD).toBe(1000)
    const timeline = /<section id="timeline-section">[\s\S]*?<\/section>/.exec(renderHtml(report))![0]
    const folds = [...timeline.matchAll(/<details class="more"><summary>([^<]*)<\/summary>([\s\S]*?)<\/details>/g)]
    expect(folds.map(([, summary]) => summary)).toEqual([
      '1000 more replaces (entries 201 to 1200 of 2500)',
      '1000 more replaces (entries 1201 to 2200 of 2500)',
      '300 more replaces (entries 2201 to 2500 of 2500)',
    ])
    expect(folds.map(([, , rows]) => rows!.split('<tr><td class="seq">').length - 1)).toEqual([1000, 1000, 300])
  })
})

describe('a log of very many turns, brackets and failed calls', () => {
  /** A timeline of `count` two-event turns, each with a failed model call, a bracket and an end-seed every fifth. */
  function busyTimeline(count: number): AuditTimeline {
    const report = auditOf(artifact(compactedLog()))
    const seqs = Array.from({ length: count }, (_, index) => index * 2)
    return {
      ...report.timeline!,
      eventTypes: Array.from({ length: count * 2 }, (_, seq) => (seq % 2 === 0 ? 'turn/start' : 'turn/end')),
      turns: seqs.map((seq, index) => ({ turn: index + 1, startSeq: seq, endSeq: seq + 1, endReason: 'failed' })),
      brackets: seqs.map(seq => ({ startSeq: seq, endSeq: seq + 1, outcome: seq % 10 === 4 ? 'failed-clean' : 'completed', compactionId: null, error: null })),
      endSeeds: seqs.filter(seq => seq % 10 === 0).map(seq => seq + 1),
      modelFailures: seqs.map(seq => ({ seq: seq + 1, code: 'E', message: 'failed' })),
    }
  }

  /** The left and right edge of each label drawn with `marker`'s class, at 6 pixels a character as drawn. */
  function labelSpans(svg: string, marker: string): [number, number][] {
    const labels = [...svg.matchAll(new RegExp(`<text x="([0-9.]+)" y="[0-9.]+" class="${marker}" text-anchor="(\\w+)">([^<]*)</text>`, 'g'))]
    return labels.map(([, x, anchor, label]) => {
      const width = label!.length * 6
      const left = anchor === 'start' ? Number(x) : anchor === 'middle' ? Number(x) - width / 2 : Number(x) - width
      return [left, left + width]
    })
  }

  it('draws shapes and labels bounded by the plot, not by the log (10,000 failed calls drew 20,000)', () => {
    const svg = timelineSvg(busyTimeline(10_000), [])
    expect(svg.match(/<rect /g)!.length).toBeLessThan(1500)
    expect(svg.match(/<line /g)!.length).toBeLessThan(900)
    expect(svg.match(/<text /g)!.length).toBeLessThan(200)
    // 20,000 seqs over 830 pixels: groups of 49 seqs (2 pixels), the first holding seqs 0 to 48.
    expect(svg).toContain('<title>25 turns (turn 1 to 25), seq 0…49</title>')
    expect(svg).toContain('<title>25 compaction brackets, seq 0…49: 5 failed-clean, 20 completed</title>')
    expect(svg).toContain('<title>24 model calls failed, seq 1…47</title>')
    expect(svg).toContain('<title>5 end-seeds, seq 1…41</title>')
  })

  it('draws no marker label over the one before it', () => {
    const svg = timelineSvg(busyTimeline(40), [])
    for (const marker of ['marker-label', 'marker-label failure']) {
      const spans = labelSpans(svg, marker)
      expect(spans.length).toBeGreaterThan(1)
      for (const [index, [left]] of spans.entries()) if (index > 0) expect(left).toBeGreaterThan(spans[index - 1]![1])
    }
  })

  it('draws each turn, bracket and failed call of a short log on its own, labelled', () => {
    const svg = timelineSvg(busyTimeline(3), [])
    expect(svg.match(/class="turn"/g)).toHaveLength(3)
    expect(svg.match(/class="bracket"/g)).toHaveLength(3)
    expect(svg.match(/class="model-failure"/g)).toHaveLength(3)
    expect(svg).toContain('>turn 2 · failed</text>')
    expect(svg).toContain('<title>compaction bracket 4…5: failed-clean</title>')
    expect(svg).toContain('<title>model call failed: E (seq 3)</title>')
  })
})

describe('budget', () => {
  it('leaves provider counts that are no counts out of the totals, which stay safe integers', () => {
    const usage = (seq: number, inputTokens: unknown, outputTokens: unknown) => event('assistant/chunk', seq, { turn: 1, step: 1, chunk: { type: 'usage', usage: { inputTokens, outputTokens } } })
    const counted = providerUsage([usage(0, 1.7976931348623157e308, -5.5), usage(1, 7, 3), usage(2, Number.MAX_SAFE_INTEGER, 0), usage(3, 1, 0)])
    expect(counted).toEqual({ steps: 1, inputTokens: Number.MAX_SAFE_INTEGER, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 3, lastInputTokens: 1, lastPromptTokens: 1 })
  })

  it('counts cached input beside the uncached input, and the last prompt as all three', () => {
    const usage = (seq: number, step: number, counts: Record<string, number>) =>
      event('assistant/chunk', seq, { turn: 1, step, chunk: { type: 'usage', usage: { outputTokens: 10, ...counts } } })
    // By hand (VOC-5: inputTokens leaves out the cached input): uncached 2883 + 185 + 69; read 2816 +
    // 3200; written 40; the last record's prompt 69 + 3200 + 0.
    const counted = providerUsage([
      usage(0, 1, { inputTokens: 2883, cacheReadTokens: 0, cacheWriteTokens: 40 }),
      usage(1, 2, { inputTokens: 185, cacheReadTokens: 2816 }),
      usage(2, 3, { inputTokens: 69, cacheReadTokens: 3200 }),
    ])
    expect(counted).toEqual({ steps: 3, inputTokens: 3137, cacheReadTokens: 6016, cacheWriteTokens: 40, outputTokens: 30, lastInputTokens: 69, lastPromptTokens: 3269 })
    const budget = { rawEvents: 3, rawBytes: 300, logOnlyEvents: 3, surfaceNodes: 0, surfaceMessages: 0, surfaceMessageBytes: 2, providerUsage: counted, tokens: {
      systemPrompt: 0, toolSchemas: 0, toolCount: 0, surfaceMessages: 0, transcriptMessages: 0, shadowed: 0, replacementText: 0, saved: 0, headerInForce: false, fixedAtFirstReplacement: null, contextWindow: null,
    } }
    const texts = budgetRow(budget, [], estimateCounter('the test asks for it'), 'raw').evidence.map(item => item.text)
    expect(texts).toContain('the provider reported 3137 uncached input tokens (beside 6016 read from its prompt cache and 40 written to it) and 30 output tokens over 3 steps; the last call read a prompt of 3269 tokens, 69 of them not cached')
  })

  it('does not call the budget taken back when no request header was in force at the first replace', () => {
    const long = 'Keep src/a.ts stable and never touch tests/fixtures. '.repeat(40)
    const system = { system: 'S'.repeat(5000) }
    const events = [
      turnStart(0, 1), stepStart(1, 1, 1), userText(2, long), userText(3, long), stepEnd(4, 1, 1), turnEnd(5, 1),
      event('compaction/start', 6, { compactionId: 'k1', turn: null }),
      event('compaction/summary', 7, { compactionId: 'k1', summary: [{ type: 'text', text: 'short' }], shadowedRange: { start: 2, end: 3 }, shadowedSeqs: [2, 3], shadowedTokenCount: 1000, provider: 'p', model: 'm' }),
      event('user/message', 8, { id: 'cp', role: 'user', content: [{ type: 'text', text: 'Summary: short' }], source: { kind: 'plugin', plugin: 'compact', compactionId: 'k1' } }, { surfaceOp: { op: 'replace', start: 2, end: 3 }, sourceEventSeqs: [6, 7, 2, 3] }),
      event('compaction/end', 9, { compactionId: 'k1', turn: null }),
      turnStart(10, 2), stepStart(11, 2, 1), userText(12, 'go on'), requestHeader(13, undefined, system), assistantText(14, 2, 1, 'done'), stepEnd(15, 2, 1), turnEnd(16, 2),
    ]
    const report = auditOf(artifact(events))
    expect(report.budget?.tokens.fixedAtFirstReplacement).toBeNull()
    expect(rowOf(report, 'budget').verdict).toBe('warn')
  })
})

describe('failure recovery', () => {
  it('does not call an orphaned start the lock when a later bracket decides the lock', () => {
    // An unmatched compaction/start k0, then a whole bracket k1 (seqs shifted by one) without an end-seed.
    const bracket = compactedLog().slice(12).map(item => ({ ...item, seq: item.seq + 1, ...(item.sourceEventSeqs === undefined ? {} : { sourceEventSeqs: (item.sourceEventSeqs as number[]).map((seq) => (seq >= 12 ? seq + 1 : seq)) }) }))
    const row = rowOf(auditOf(artifact([...goodTurn(), event('compaction/start', 12, { compactionId: 'k0', turn: null }), ...bracket])), 'failure-recovery')
    const orphan = row.evidence.find(item => item.text.startsWith('compaction bracket 12…'))
    expect(orphan?.mark).toBe('warn')
    expect(orphan?.text).toContain('though the lock is not its own')
  })

  it('fails a failed-partial bracket even before the model ran on its surface (spec/acceptance.md)', () => {
    const events = [...compactedLog().slice(0, 15), event('compaction/end', 15, { compactionId: 'k1', turn: null, error: 'commit failed' })]
    const row = rowOf(auditOf(artifact(events)), 'failure-recovery')
    expect(row.verdict).toBe('fail')
    expect(row.evidence.map(item => item.text).join('\n')).toContain('failed-partial (error: commit failed)')
  })
})
