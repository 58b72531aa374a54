// Lints the vector files themselves: unique stable ids, step inputs as spec/00-processing.md gives
// them, and files in the folder of their chapter. (The loader itself refuses unknown requirement IDs and
// codes, unplaced rejections and operations outside a profile: tests/vector-cases.test.ts.)
import { basename, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parseNameTable, readSpecCatalog } from '../conformance/spec-catalog.ts'
import { listVectorFiles, loadVectorCases, projectRoot } from '../conformance/vector-cases.ts'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const catalog = readSpecCatalog(fileURLToPath(new URL('../spec/', import.meta.url)))
const cases = loadVectorCases()

/** The table of spec/`file` whose rows start with a backticked name. */
function specTable(file: string): Map<string, Set<string>> {
  return parseNameTable(readFileSync(join(projectRoot, 'spec', file), 'utf8'))
}

describe('vector files', () => {
  it('exist and expand', () => {
    expect(listVectorFiles().length).toBeGreaterThan(0)
    expect(cases.length).toBeGreaterThan(0)
  })

  it('give every case a unique id that was never withdrawn', () => {
    const withdrawn = readFileSync(join(projectRoot, 'vectors/withdrawn.txt'), 'utf8')
      .split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'))
    const seen = new Map<string, string>()
    const problems: string[] = []
    for (const vector of cases) {
      if (seen.has(vector.id)) problems.push(`${vector.id} in ${vector.file} and ${seen.get(vector.id)}`)
      if (withdrawn.includes(vector.id)) problems.push(`${vector.id} in ${vector.file} was withdrawn`)
      seen.set(vector.id, vector.file)
    }
    expect(problems).toEqual([])
  })

  it('let a step carry only inputs its operation takes: those of its row in spec/00-processing.md, and PROC-9\'s for one over a log', () => {
    const schema = JSON.parse(readFileSync(join(projectRoot, 'schemas/vector-file.schema.json'), 'utf8'))
    const logInputs = Object.keys(schema.$defs.LogInputs.properties)
    const rows = specTable('00-processing.md')
    const foreign: string[] = []
    const open: string[] = []
    type MemberSchema = { properties?: object; allOf?: unknown[]; additionalProperties?: boolean; unevaluatedProperties?: boolean }
    for (const [operation, member] of Object.entries(schema.$defs.Step.properties as Record<string, MemberSchema>)) {
      if (operation === 'expect' || operation === 'append') continue
      if (member.additionalProperties !== false && member.unevaluatedProperties !== false) open.push(operation)
      const inputs = rows.get(operation)
      const members = [...Object.keys(member.properties ?? {}), ...(member.allOf === undefined ? [] : logInputs)]
      for (const name of members) if (!inputs?.has(name) && !(inputs?.has('events') && logInputs.includes(name))) foreign.push(`${operation}.${name}`)
    }
    expect(rows.size).toBe(17)
    expect(foreign).toEqual([])
    expect(open).toEqual([])
  })

  it('give a decodeJsonl step its bytes one way: as text or as base64, never both (JSONL-4: exactly one of the two)', () => {
    const both = cases.flatMap((vector) => vector.steps
      .map((step, index) => ({ step, index }))
      .filter(({ step }) => 'text' in step.input && 'base64' in step.input)
      .map(({ index }) => `${vector.id} step ${index + 1}`))
    expect(both).toEqual([])
  })

  it('that hold lone surrogates are the ones vectors/README.md lists for ports whose JSON parser drops them', () => {
    const lone = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/
    const holdsLoneSurrogate = (value: unknown): boolean => {
      if (typeof value === 'string') return lone.test(value)
      if (typeof value !== 'object' || value === null) return false
      return Object.entries(value).some(([key, member]) => lone.test(key) || holdsLoneSurrogate(member))
    }
    const holding = cases.filter((vector) => holdsLoneSurrogate(vector.steps)).map((vector) => vector.id).sort()
    const readme = readFileSync(join(projectRoot, 'vectors/README.md'), 'utf8')
    const bullet = readme.slice(readme.indexOf('- **Strings** may hold lone surrogates'), readme.indexOf('- **Identity.**'))
    expect(holding.length).toBeGreaterThan(0)
    expect([...bullet.matchAll(/`([a-z0-9]+(?:-[a-z0-9]+)+)`/g)].map((match) => match[1]).sort()).toEqual(holding)
  })

  it('live in the folder of the chapter they name', () => {
    const chapters = new Set(catalog.requirements.map((requirement) => requirement.chapter.replace(/\.md$/, '')))
    const misplaced = cases
      .filter((vector) => basename(dirname(vector.file)) !== vector.chapter || !chapters.has(vector.chapter))
      .map((vector) => `${vector.id}: ${vector.file} says ${vector.chapter}`)
    expect(misplaced).toEqual([])
  })
})
