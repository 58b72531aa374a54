// Lints the vector files themselves: schema, unique stable ids, known requirement IDs and codes, and
// rejections that say where they lie.
import { basename, dirname } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { readSpecCatalog } from '../conformance/spec-catalog.ts'
import { listVectorFiles, loadVectorCases, projectRoot } from '../conformance/vector-cases.ts'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const catalog = readSpecCatalog(fileURLToPath(new URL('../spec/', import.meta.url)))
const cases = loadVectorCases()

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

  it('live in the folder of the chapter they name', () => {
    const chapters = new Set(catalog.requirements.map((requirement) => requirement.chapter.replace(/\.md$/, '')))
    const misplaced = cases
      .filter((vector) => basename(dirname(vector.file)) !== vector.chapter || !chapters.has(vector.chapter))
      .map((vector) => `${vector.id}: ${vector.file} says ${vector.chapter}`)
    expect(misplaced).toEqual([])
  })
})
