// Lints the vector files themselves: schema, unique stable ids, known requirement IDs and codes,
// rejections that say where they lie, and operations that stay within the case's profile.
import { basename, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readSpecCatalog } from '../conformance/spec-catalog.ts'
import { listVectorFiles, loadVectorCases, projectRoot } from '../conformance/vector-cases.ts'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const catalog = readSpecCatalog(fileURLToPath(new URL('../spec/', import.meta.url)))
const cases = loadVectorCases()

/** The rows of a table in spec/`file` whose first cell is a backticked name: that name, and the backticked names of the third cell. */
function specTable(file: string): Map<string, Set<string>> {
  const rows = readFileSync(join(projectRoot, 'spec', file), 'utf8').split('\n').filter((line) => /^\| `[A-Za-z]+` \|/.test(line))
  return new Map(rows.map((line) => {
    const cells = line.split('|').map((cell) => cell.trim())
    return [cells[1]!.replace(/`/g, ''), new Set([...cells[3]!.matchAll(/`([A-Za-z][A-Za-z0-9]*)`/g)].map((match) => match[1]!))]
  }))
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

  it('name only requirement IDs the spec defines', () => {
    const known = new Set(catalog.requirements.map((requirement) => requirement.id))
    const unknown = cases.flatMap((vector) => vector.requirements.filter((id) => !known.has(id)).map((id) => `${vector.id}: ${id}`))
    expect(unknown).toEqual([])
  })

  it('expect only rejection codes listed in spec/errors.md', () => {
    const codes = new Set(catalog.codes.filter((code) => code.table === 'rejection').map((code) => code.code))
    const unknown = cases.flatMap((vector) => vector.steps
      .flatMap((step) => ('reject' in step.expect ? [step.expect.reject.code] : []))
      .filter((code) => !codes.has(code))
      .map((code) => `${vector.id}: ${code}`))
    expect(unknown).toEqual([])
  })

  it('say where every rejection lies: its seq or line, or null where the spec says it carries none', () => {
    const unplaced = cases.flatMap((vector) => vector.steps
      .flatMap((step, index) => ('reject' in step.expect && step.expect.reject.seq === undefined && step.expect.reject.line === undefined ? [`${vector.id} step ${index}`] : [])))
    expect(unplaced).toEqual([])
  })

  it("use only their profile's operations, a writer case also load, surface and messages (spec/profiles.md)", () => {
    const operations = specTable('profiles.md')
    expect([...operations.keys()].sort()).toEqual(['compaction', 'fork', 'jsonl', 'reader', 'relations', 'repair', 'writer'])
    const writerChecks = new Set(['load', 'surface', 'messages'])
    const foreign = cases.flatMap((vector) => vector.steps
      .filter((step) => !operations.get(vector.profile)?.has(step.operation) && !(vector.profile === 'writer' && writerChecks.has(step.operation)))
      .map((step) => `${vector.id} (${vector.profile}) uses ${step.operation}`))
    expect(foreign).toEqual([])
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
    expect(rows.size).toBe(16)
    expect(foreign).toEqual([])
    expect(open).toEqual([])
  })

  it('live in the folder of the chapter they name', () => {
    const chapters = new Set(catalog.requirements.map((requirement) => requirement.chapter.replace(/\.md$/, '')))
    const misplaced = cases
      .filter((vector) => basename(dirname(vector.file)) !== vector.chapter || !chapters.has(vector.chapter))
      .map((vector) => `${vector.id}: ${vector.file} says ${vector.chapter}`)
    expect(misplaced).toEqual([])
  })
})
