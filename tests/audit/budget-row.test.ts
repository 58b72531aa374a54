// The budget row's verdict at the edges of each rule docs/audit.md states: a replace no smaller than
// what it shadowed, a saving of zero, a fixed part that grew by exactly the saving, a fixed part equal
// to the surface messages, and a recorded shadowedTokenCount at a factor of exactly two or exactly
// fifty tokens from the count. The row is built from plain data, so each edge is set by hand.
import { describe, expect, it } from 'vitest'
import type { AuditBudget, AuditEvidence, AuditReplacement, AuditTokens } from '../../generated/types/index.ts'
import { budgetRow } from '../../conformance/audit/row-budget.ts'
import { budgetSvg } from '../../conformance/audit/render-svg.ts'
import { estimateCounter } from '../../conformance/audit/tokens.ts'

const counter = estimateCounter('the test asks for it')

function replacement(fields: Partial<AuditReplacement> = {}): AuditReplacement {
  return {
    seq: 14, time: 0, type: 'user/message', kind: 'compaction-checkpoint', start: 2, end: 6, shadowedSeqs: [2, 4, 6], citedSeqs: [2, 4, 6],
    compactionId: 'k', bracketOutcome: 'completed', recordedShadowedTokenCount: null, text: 'summary', tokens: 10, shadowed: [], shadowedTokens: 100, absentTerms: [],
    ...fields,
  }
}

/** A budget whose transcript held 1,000 tokens of messages and whose surface holds `surfaceMessages`. */
function budget(tokens: Partial<AuditTokens> = {}): AuditBudget {
  return {
    rawEvents: 16, rawBytes: 4000, logOnlyEvents: 8, surfaceNodes: 4, surfaceMessages: 4, surfaceMessageBytes: 900,
    tokens: {
      systemPrompt: 100, toolSchemas: 100, toolCount: 1, surfaceMessages: 400, transcriptMessages: 1000, shadowed: 600, replacementText: 10,
      saved: 600, headerInForce: true, fixedAtFirstReplacement: 200, contextWindow: null, ...tokens,
    },
    providerUsage: { steps: 0, inputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, outputTokens: 0, lastInputTokens: null, lastPromptTokens: null },
  }
}

function marked(items: readonly AuditEvidence[], requirement: string): string[] {
  return items.filter(item => item.requirements?.includes(requirement)).map(item => item.mark)
}

describe('the budget row at the edges of its rules', () => {
  it('passes a log with no replace, whatever the shares', () => {
    const row = budgetRow(budget({ saved: 0, systemPrompt: 5000 }), [], counter, 'raw')
    expect(row.verdict).toBe('pass')
    expect(row.summary).toBe('Nothing was replaced; the shares of the next request are listed.')
  })

  it.each([
    ['as long as what it shadowed', 100, 'compaction-checkpoint', ['warn']],
    ['one token shorter', 99, 'compaction-checkpoint', []],
    ['longer, but a tool-result rewrite (REGION-8 binds summaries)', 150, 'tool-result-rewrite', []],
  ] as const)('warns of a replace %s only when it is no smaller and no rewrite (REGION-8)', (_, tokens, kind, marks) => {
    const row = budgetRow(budget(), [replacement({ tokens, kind })], counter, 'raw')
    expect(marked(row.evidence, 'REGION-8')).toEqual(marks)
    expect(row.verdict).toBe(marks.length === 0 ? 'pass' : 'warn')
  })

  it('fails a saving of zero tokens and not a saving of one', () => {
    const none = budgetRow(budget({ saved: 0, surfaceMessages: 1000 }), [replacement()], counter, 'raw')
    expect(none.verdict).toBe('fail')
    expect(none.summary).toBe('Shortening the surface did not save context.')
    expect(marked(none.evidence, 'DER-1')).toEqual(['info', 'fail'])
    const one = budgetRow(budget({ saved: 1, surfaceMessages: 999 }), [replacement()], counter, 'raw')
    expect(one.verdict).toBe('pass')
  })

  it('fails a fixed part that grew by as much as the replaces saved, not by one token less', () => {
    // The fixed part now is 200; it was 200 - growth at the first replace; the replaces saved 600.
    const takenBack = budgetRow(budget({ fixedAtFirstReplacement: 200 - 600 }), [replacement()], counter, 'raw')
    expect(takenBack.verdict).toBe('fail')
    expect(marked(takenBack.evidence, 'HDR-4')).toEqual(['info', 'fail'])
    expect(takenBack.summary).toBe('The system prompt and tool schemas took back what the replaces saved.')
    expect(budgetRow(budget({ fixedAtFirstReplacement: 200 - 599 }), [replacement()], counter, 'raw').verdict).toBe('pass')
  })

  it('counts no growth when no request header was in force at the first replace', () => {
    // The fixed part (700) is more than the saving (600), but not more than the surface messages.
    const tokens = { systemPrompt: 350, toolSchemas: 350, surfaceMessages: 1000, transcriptMessages: 1600, saved: 600, fixedAtFirstReplacement: null }
    expect(budgetRow(budget(tokens), [replacement()], counter, 'raw').verdict).toBe('pass')
  })

  it('says the fixed part of the next request is unknown, not zero, with no request header in force at the end (HDR-4)', () => {
    const unknown = { systemPrompt: 0, toolSchemas: 0, toolCount: 0, headerInForce: false, fixedAtFirstReplacement: null, contextWindow: 4000 }
    const row = budgetRow(budget(unknown), [replacement()], counter, 'raw')
    expect(row.verdict).toBe('warn')
    expect(row.evidence.map(item => item.text)).toEqual(expect.arrayContaining([
      'next request: surface messages 400 estimated tokens; no request/header is in force, so its system prompt and tool schemas are unknown',
      'the surface messages alone would fill 10% of the 4000-token context window, the rest of the request being unknown',
      'the replaces saved 600 estimated tokens (60% of the transcript), but no request/header is in force at the end of the log, so whether the system prompt and tool schemas took it back is unknown (see Request rebuild)',
    ]))
    expect(row.evidence.map(item => item.text).join('\n')).not.toMatch(/did not take it back|system prompt 0/)
    // With no replace there is no saving to take back: the row passes, the share still unknown.
    const unreplaced = budgetRow(budget({ ...unknown, saved: 0 }), [], counter, 'raw')
    expect(unreplaced.verdict).toBe('pass')
    expect(unreplaced.summary).toBe('Nothing was replaced; with no request header in force, the shares of the next request are unknown.')
  })

  it('warns when the fixed part outweighs the surface messages, and not when it equals them', () => {
    const equal = budgetRow(budget({ systemPrompt: 150, toolSchemas: 250, fixedAtFirstReplacement: 400 }), [replacement()], counter, 'raw')
    expect(equal.verdict).toBe('pass')
    expect(equal.summary).toBe('The replaces saved 600 estimated tokens, and the fixed part did not take them back.')
    const heavier = budgetRow(budget({ systemPrompt: 151, toolSchemas: 250, fixedAtFirstReplacement: 401 }), [replacement()], counter, 'raw')
    expect(heavier.verdict).toBe('warn')
    expect(heavier.summary).toBe('The replaces saved 600 estimated tokens, but the system prompt and tool schemas take 50% of the next request.')
  })

  it.each([
    // [recorded, counted, off]: off by more than a factor of 2 either way and by more than 50 tokens.
    // The replace is a rewrite, so that REGION-8 (a summary no smaller than what it shadowed) stays out.
    [200, 100, false], [201, 100, true],
    [100, 200, false], [99, 200, true], [20, 200, true],
    [10, 60, false], [9, 60, true],
    [60, 10, false], [61, 10, true],
    [50, 0, false], [51, 0, true],
    [0, 51, true], [0, 50, false],
  ] as const)('marks a recorded shadowedTokenCount of %i against %i counted as off: %s (COMP-5)', (recorded, counted, off) => {
    const row = budgetRow(budget(), [replacement({ kind: 'tool-result-rewrite', recordedShadowedTokenCount: recorded, shadowedTokens: counted, tokens: 0 })], counter, 'raw')
    const items = row.evidence.filter(item => item.requirements?.includes('COMP-5'))
    expect(items.map(item => item.mark)).toEqual([off ? 'warn' : 'info'])
    expect(items[0]?.text).toContain(`records shadowedTokenCount ${recorded}; the shadowed messages count ${counted} estimated tokens here`)
    expect(row.verdict).toBe(off ? 'warn' : 'pass')
  })

  it('says nothing of a shadowed count no claim recorded', () => {
    const row = budgetRow(budget(), [replacement({ recordedShadowedTokenCount: null })], counter, 'raw')
    expect(marked(row.evidence, 'COMP-5')).toEqual([])
  })
})

describe('the shares the budget row and its chart give', () => {
  it('are the same whole percentages in the row and the chart, and none of an empty request', () => {
    // 600 of a 20,000-token window is 3%, which the chart wrote as 3.0%.
    const filled = budget({ contextWindow: 20_000 })
    const row = budgetRow(filled, [replacement()], counter, 'raw')
    expect(row.evidence.map(item => item.text)).toContain('the next request would fill 3% of the 20000-token context window')
    expect(budgetSvg(filled, 'estimated tokens')).toContain('system prompt and tool schemas take 33% of the next request (600 estimated tokens); the next request would fill 3% of the 20000-token window')
    const nothing = budget({ systemPrompt: 0, toolSchemas: 0, toolCount: 0, surfaceMessages: 0 })
    const empty = budgetRow(nothing, [], counter, 'raw')
    expect(empty.evidence.map(item => item.text)).toContain('next request: system prompt 0 + 0 tool schemas 0 + surface messages 0 = 0 estimated tokens; the request holds nothing yet')
    expect(budgetSvg(nothing, 'estimated tokens')).toContain('<title>Budget: the next request holds nothing yet</title>')
    // A window of 0 tokens, which the context's fold admits, is said as such, not as 0% filled.
    const noWindow = budget({ contextWindow: 0 })
    expect(budgetRow(noWindow, [replacement()], counter, 'raw').evidence.map(item => item.text)).toContain('the context in force records a window of 0 tokens, which no request fits')
    expect(budgetSvg(noWindow, 'estimated tokens')).toContain('(600 estimated tokens); the context in force records a window of 0 tokens, which no request fits</title>')
    // With no request header in force, the chart says the fixed part is unknown, as the row does.
    const unknown = budget({ systemPrompt: 0, toolSchemas: 0, toolCount: 0, headerInForce: false, contextWindow: 4000 })
    expect(budgetSvg(unknown, 'estimated tokens')).toContain('<text x="8.0" y="66.0" class="lane-label">messages only</text>')
    expect(budgetSvg(unknown, 'estimated tokens')).toContain('<title>Budget: no request header is in force, so the system prompt and tool schemas of the next request are unknown; its surface messages: 400 estimated tokens; the surface messages alone would fill 10% of the 4000-token window, the rest of the request being unknown</title>')
  })
})
