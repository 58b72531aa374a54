// Each row of the audit says which rules it checks (spec/acceptance.md, ROW_DEFINITIONS): every rule
// its evidence cites must be among them, over hand-built logs and every log of the corpus, every rule
// the row's module names, and every relation code's rule; and the rows' lists must be the spec's.
import { readdirSync, readFileSync, existsSync } from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import type { AuditReport } from '../../generated/types/index.ts'
import { ROW_DEFINITIONS, rowOfViolation } from '../../conformance/audit/verdicts.ts'
import { RequirementIndex } from '../../conformance/check/requirements.ts'
import { readSpecCatalog } from '../../conformance/spec-catalog.ts'
import { V0_RC8_TYPES } from '../../reference/vocabulary.ts'
import { artifact, auditOf, compactedLog, goodTurn, projectRoot } from './logs.ts'

const corpusFolder = path.resolve(projectRoot, '../shared/corpus/upstream-rc8')

/** The requirement IDs a checked-by text names: `ENV-1…ENV-10` is ENV-1 to ENV-10. */
function namedRequirements(checkedBy: string): Set<string> {
  const named = new Set<string>()
  for (const [, prefix, first, last] of checkedBy.matchAll(/\b([A-Z]+)-(\d+)(?:…\1-(\d+))?/g)) {
    for (let number = Number(first); number <= Number(last ?? first); number += 1) named.add(`${prefix}-${number}`)
  }
  return named
}

/** `row: REQ` for each rule a row's evidence cites that its checked-by list does not name. */
function unlisted(report: AuditReport): string[] {
  return report.rows.flatMap(row => {
    const named = namedRequirements(row.checkedBy)
    return row.evidence.flatMap(item => (item.requirements ?? []).filter(id => !named.has(id)).map(id => `${row.id}: ${id}`))
  })
}

const corpusPresent = existsSync(corpusFolder)

describe('the rules a row checks', () => {
  it('are the checked-by column of spec/acceptance.md', () => {
    const table = readFileSync(path.join(projectRoot, 'spec/acceptance.md'), 'utf8')
    for (const row of ROW_DEFINITIONS) {
      const line = table.split('\n').find(text => text.startsWith(`| **${row.title}** |`))
      expect(line, row.title).toBeDefined()
      expect([...namedRequirements(line!.split(' | ')[2]!)].sort(), row.title).toEqual([...namedRequirements(row.checkedBy)].sort())
    }
  })

  it('include every rule its evidence cites, over hand-built logs', () => {
    const openTurn = goodTurn().filter(event => event.type !== 'turn/end')
    const reports = [auditOf(artifact(goodTurn())), auditOf(artifact(compactedLog())), auditOf(artifact(goodTurn(), '{"type":"turn/st')), auditOf(artifact(openTurn))]
    expect([...new Set(reports.flatMap(unlisted))].sort()).toEqual([])
  })

  it.skipIf(!corpusPresent)(`include every rule its evidence cites, over every log of the corpus${corpusPresent ? '' : ` (skipped: ${corpusFolder} not found)`}`, () => {
    const names = readdirSync(corpusFolder).filter(name => name.endsWith('.jsonl'))
    expect(names.length).toBeGreaterThan(0)
    const reports = names.map(name => auditOf(readFileSync(path.join(corpusFolder, name)), undefined, name))
    expect([...new Set(reports.flatMap(unlisted))].sort()).toEqual([])
  })

  it('include the rule of every load rejection the vectors pin, as a stored log (the header made a storage header)', () => {
    const bundle = JSON.parse(readFileSync(path.join(projectRoot, 'generated/vectors.bundle.json'), 'utf8')) as { cases: { steps: { operation: string; input: Record<string, unknown>; expect: Record<string, unknown> }[] }[] }
    const plain = (value: unknown): boolean => !JSON.stringify(value ?? null).includes('"$dsh"')
    const logs = bundle.cases.flatMap(vector => vector.steps).filter(step => step.operation === 'load' && 'reject' in step.expect && Array.isArray(step.input['events']) && plain(step.input))
    expect(logs.length).toBeGreaterThan(400)
    const reports = logs.map(step => {
      const given = step.input['header']
      const header = { type: 'session', version: 0, id: 'audit-test', createdAt: 0, cwd: '/work/project', delegationDepth: 0, ...(typeof given === 'object' && !Array.isArray(given) ? given : {}) }
      return auditOf(new TextEncoder().encode([header, ...(step.input['events'] as unknown[])].map(record => `${JSON.stringify(record)}\n`).join('')))
    })
    expect([...new Set(reports.flatMap(unlisted))].sort()).toEqual([])
  })

  it('include every rule the module of the row names for its evidence', () => {
    const modules: Record<string, string> = {
      'raw-facts': 'row-raw-facts', 'surface-legality': 'row-surface', 'constraint-preservation': 'row-constraints', 'request-rebuild': 'row-request',
      persistence: 'row-persistence', 'failure-recovery': 'row-recovery', budget: 'row-budget',
    }
    const outside = ROW_DEFINITIONS.flatMap(row => {
      const source = readFileSync(path.join(projectRoot, 'conformance/audit', `${modules[row.id]!}.ts`), 'utf8')
      const cited = new Set([...source.matchAll(/'([A-Z]+-\d+)'/g)].map(match => match[1]!))
      const named = namedRequirements(row.checkedBy)
      // A module that stopped quoting its rules this way would cite none, and pass unread.
      if (cited.size === 0) return [`${row.id}: no rule found in conformance/audit/${modules[row.id]!}.ts`]
      return [...cited].filter(id => !named.has(id)).map(id => `${row.id}: ${id}`)
    })
    expect(outside).toEqual([])
  })

  it('include the rule of every relation violation filed under the row, whatever the vetoed event', () => {
    const index = new RequirementIndex()
    const rows = new Map(ROW_DEFINITIONS.map(row => [row.id, namedRequirements(row.checkedBy)]))
    const relationCodes = readSpecCatalog(path.join(projectRoot, 'spec')).codes.filter(error => error.kind === 'relation').map(error => error.code)
    const outside = relationCodes.flatMap(code => [...V0_RC8_TYPES].flatMap(eventType => [false, true].flatMap(replaces => {
      const requirement = index.ofViolation({ code, eventType, replaces })
      const row = rowOfViolation(code, eventType)
      if (requirement === undefined) return [`${row}: no rule for ${code} on ${eventType}`]
      return rows.get(row)!.has(requirement) ? [] : [`${row}: ${requirement} (${code})`]
    })))
    expect([...new Set(outside)].sort()).toEqual([])
  })
})
