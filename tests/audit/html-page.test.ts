// The HTML page for readers it used to fail: the timeline told in words (a screen reader gets only the
// picture's name otherwise), a right-to-left session id kept apart from the numbers beside it, axis
// labels and replace labels that never run into each other or into the lane names, and the page's
// wide parts in boxes that scroll on a narrow screen.
import { describe, expect, it } from 'vitest'
import { renderHtml } from '../../conformance/audit/render-html.ts'
import { tickStep, timelineSvg } from '../../conformance/audit/render-svg.ts'
import { LISTED_MOST, timelineText } from '../../conformance/audit/timeline-text.ts'
import type { AuditReplacement, AuditReport, AuditTimeline } from '../../generated/types/index.ts'
import { artifact, auditOf, compactedLog } from './logs.ts'

function timelineOf(count: number, overrides: Partial<AuditTimeline> = {}): AuditTimeline {
  return {
    eventTypes: Array.from({ length: count }, () => 'plan/mode'),
    firstTime: null, lastTime: null, finalSurface: [], generation: 0, turns: [], brackets: [], endSeeds: [], modelFailures: [],
    ...overrides,
  }
}

function replacementOf(seq: number, shadowedSeqs: number[]): AuditReplacement {
  return {
    seq, time: 1_063, type: 'user/message', kind: 'compaction-checkpoint', start: shadowedSeqs[0]!, end: shadowedSeqs.at(-1)!, shadowedSeqs,
    citedSeqs: shadowedSeqs, compactionId: 'k1', bracketOutcome: 'completed', recordedShadowedTokenCount: null, text: 'summary',
    tokens: 1, shadowed: [], shadowedTokens: 10, absentTerms: [],
  }
}

/** The left and right edge of each <text> of `svg` whose class starts with `marker`, at 6 pixels a character as drawn. */
function labelSpans(svg: string, marker: string): { label: string; left: number; right: number }[] {
  const labels = [...svg.matchAll(new RegExp(`<text x="([0-9.]+)" y="[0-9.]+" class="${marker}[^"]*" text-anchor="(\\w+)">([^<]*)</text>`, 'g'))]
  return labels.map(([, x, anchor, label]) => {
    const width = label!.length * 6
    const left = anchor === 'start' ? Number(x) : anchor === 'middle' ? Number(x) - width / 2 : Number(x) - width
    return { label: label!, left, right: left + width }
  })
}

describe('the timeline as text', () => {
  it('tells the turns, brackets, end-seeds, failed calls and the current surface', () => {
    const timeline = timelineOf(30, {
      turns: [{ turn: 1, startSeq: 0, endSeq: 5, endReason: 'completed' }, { turn: 2, startSeq: 6, endSeq: 8, endReason: 'interrupted' }, { turn: 3, startSeq: 9, endSeq: null, endReason: null }],
      brackets: [{ startSeq: 10, endSeq: 14, outcome: 'completed', compactionId: 'k1', error: null }, { startSeq: 20, endSeq: null, outcome: 'orphaned-live', compactionId: null, error: null }],
      endSeeds: [3],
      modelFailures: [{ seq: 12, code: 'rate_limit', message: 'slow down' }, { seq: 13, code: null, message: 'x' }],
      finalSurface: [2, 15, 9],
    })
    expect(timelineText(timeline, [replacementOf(15, [4, 7])])).toEqual([
      'Turns: 3, ended: 1 completed, 1 interrupted; open: turn 3 from seq 9.',
      'Compaction brackets: 2 (1 completed, 1 orphaned-live): seq 10…14 completed (compaction k1), seq 20…no end orphaned-live.',
      'Session end-seeds at seq 3.',
      'Model calls that failed: seq 12 (rate_limit), seq 13.',
      'Current surface: 3 nodes after 1 replace, listed in the table below; in surface order, seq 2, 15, 9.',
    ])
    expect(timelineText(timelineOf(0), [])).toEqual([
      'Turns: none.', 'Compaction brackets: none.', 'Session end-seeds: none.', 'Model calls that failed: none.', 'Current surface: 0 nodes after no replace.',
    ])
  })

  it('lists at most LISTED_MOST entries on a line, and escapes what the log wrote', () => {
    const seeds = Array.from({ length: LISTED_MOST + 10 }, (_, index) => index * 2)
    const [, brackets, endSeeds] = timelineText(timelineOf(200, {
      endSeeds: seeds,
      brackets: [{ startSeq: 1, endSeq: 2, outcome: 'completed', compactionId: 'k\u202e1', error: null }],
    }), [])
    expect(endSeeds).toBe(`Session end-seeds at seq ${seeds.slice(0, LISTED_MOST).join(', ')} and 10 more (the JSON report lists every one).`)
    expect(brackets).toContain('(compaction k\\u202e1)')
  })

  it('cuts a long turn-end reason and lists at most LISTED_MOST distinct ones', () => {
    const turns = Array.from({ length: LISTED_MOST + 10 }, (_, index) => ({ turn: index + 1, startSeq: index * 2, endSeq: index * 2 + 1, endReason: `reason-${index}-${'x'.repeat(2_000)}` }))
    const [line] = timelineText(timelineOf(200, { turns }), [])
    expect(line).toMatch(/^Turns: 60, ended: 1 reason-0-x+… \(1809 more characters\), /)
    expect(line).toMatch(/ and 10 more \(the JSON report lists every one\)\.$/)
    expect(line!.length).toBeLessThan(LISTED_MOST * 250)
  })

  it('is on the page, named by the picture as its description', () => {
    const page = renderHtml(auditOf(artifact(compactedLog())))
    expect(page).toMatch(/<svg id="timeline"[^>]* aria-describedby="timeline-text">/)
    expect(page).toMatch(/<details class="timeline-text"><summary>The timeline as text<\/summary><ul id="timeline-text">\n<li>Turns: /)
  })
})

describe('the page header', () => {
  it('keeps a right-to-left session id apart from the count beside it', () => {
    const report = auditOf(artifact(compactedLog()))
    const rtl: AuditReport = { ...report, log: { ...report.log, sessionId: 'سجل الجلسة' } }
    expect(renderHtml(rtl)).toContain('<p class="meta">session <bdi>سجل الجلسة</bdi> · ')
    const hostile: AuditReport = { ...report, log: { ...report.log, sessionId: '<b>\u202e' } }
    expect(renderHtml(hostile)).toContain('<p class="meta">session <bdi>&lt;b&gt;\\u202e</bdi> · ')
  })
})

describe('the timeline picture', () => {
  it('labels round seqs, with room for their digits', () => {
    expect([1, 31, 100, 1000, 200_000].map(tickStep)).toEqual([1, 2, 5, 50, 20_000])
    for (const count of [50, 999, 20_000, 200_000, 3_000_000]) {
      const ticks = labelSpans(timelineSvg(timelineOf(count), []), 'tick').filter(({ label }) => /^\d+$/.test(label))
      expect(ticks.length).toBeGreaterThan(4)
      expect(ticks.length).toBeLessThanOrEqual(20)
      for (const [index, tick] of ticks.entries()) if (index > 0) expect(tick.left, `${count} seqs: ${tick.label}`).toBeGreaterThan(ticks[index - 1]!.right)
    }
  })

  it('draws a replace label only where it fits, over no shape of its lane and not into the lane names', () => {
    const early = Array.from({ length: 45 }, (_, index) => index + 2)
    const drawn: string[] = []
    const middle = Array.from({ length: 48 }, (_, index) => index + 10)
    for (const replacement of [replacementOf(59, early), replacementOf(59, middle), replacementOf(30, [2, 3]), replacementOf(59, [57, 58]), replacementOf(40, [5, 38])]) {
      const svg = timelineSvg(timelineOf(60), [replacement])
      const shapes = [...svg.matchAll(/<rect x="([0-9.]+)" y="[0-9.]+" width="([0-9.]+)"[^>]*class="(?:shadowed|replacement)"/g)].map(([, x, width]) => [Number(x), Number(x) + Number(width)])
      expect(shapes.length).toBeGreaterThan(1)
      for (const { label, left, right } of labelSpans(svg, 'bar-label')) {
        drawn.push(label)
        expect(left, label).toBeGreaterThanOrEqual(150)
        expect(right, label).toBeLessThanOrEqual(1000)
        for (const [shapeLeft, shapeRight] of shapes) expect(right <= shapeLeft! || left >= shapeRight!, `${label} over a shape`).toBe(true)
      }
      // Whether or not a label fits, the replacing shape says it all in its tooltip.
      expect(svg).toMatch(new RegExp(`class="replacement"><title>${replacement.start}…${replacement.end} \\(${replacement.shadowedSeqs.length} shadowed\\) → seq ${replacement.seq} at `))
    }
    // A long summary of early turns at the end of the log gets none, a shorter one its count, a short replace the whole label.
    expect(drawn).toEqual(['48 shadowed', expect.stringMatching(/^2…3 \(2 shadowed\) → seq 30 at /), expect.stringMatching(/^57…58 \(2 shadowed\) → seq 59 at /), expect.stringMatching(/^5…38 \(2 shadowed\) → seq 40 at /)])
  })
})

describe('a narrow screen', () => {
  it('puts the tables and pictures in boxes that scroll sideways and that a keyboard can reach', () => {
    const page = renderHtml(auditOf(artifact(compactedLog())))
    for (const label of ['The seven rows', 'Timeline of the surface', 'Replaces', 'Budget chart']) {
      expect(page).toContain(`<div class="scroll" tabindex="0" role="region" aria-label="${label}">`)
    }
    // A bracket's outcome is a word in the text's colour, its colour a swatch beside it (yellow text on white could not be read).
    expect(page).toMatch(/<td><span class="swatch" style="background:#[0-9a-f]{6}" aria-hidden="true"><\/span>completed<\/td>/)
    expect(page).not.toContain('style="color:')
    // A card's texts scroll in their boxes when long, on any screen.
    expect(page).toMatch(/<h4>What took its place \([^)]*\)<\/h4><pre tabindex="0">/)
  })
})
