// The generators' scripts (scripts/generate-types.ts, scripts/vectors-bundle.ts) run from a copy of
// them in a temporary checkout whose path has a space, so that neither the project's generated/ nor a
// check that passes by doing nothing can hide a fault. The copy's conformance/, schemas/ and
// node_modules/ are links to the project's; its package.json, scripts/ and generated/ are its own.
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { projectRoot } from '../conformance/vector-cases.ts'

let checkout = ''

beforeAll(() => {
  checkout = mkdtempSync(join(tmpdir(), 'dsh generated '))
  for (const script of ['generate-types.ts', 'generated-files.ts', 'vectors-bundle.ts']) {
    cpSync(join(projectRoot, 'scripts', script), join(checkout, 'scripts', script))
  }
  cpSync(join(projectRoot, 'generated'), join(checkout, 'generated'), { recursive: true })
  cpSync(join(projectRoot, 'package.json'), join(checkout, 'package.json'))
  for (const folder of ['conformance', 'schemas', 'node_modules']) symlinkSync(join(projectRoot, folder), join(checkout, folder), 'dir')
})

afterAll(() => {
  if (checkout !== '') rmSync(checkout, { recursive: true, force: true })
})

/** Runs a script of the temporary checkout under tsx, as `npm run` does. */
function script(name: string, args: readonly string[] = []): { status: number | null; output: string } {
  const command = ['--import', 'tsx', join(checkout, 'scripts', name), ...args]
  const run = spawnSync(process.execPath, command, { cwd: projectRoot, encoding: 'utf8', timeout: 60_000 })
  return { status: run.status, output: `${run.stdout}${run.stderr}` }
}

describe('scripts/vectors-bundle.ts', () => {
  it('runs from a checkout whose path needs URL escaping: --check passes on a fresh bundle, fails on a stale or missing one, and writing makes it fresh', () => {
    // The copy's bundle is its own, built from the project's vectors (through the linked conformance/).
    const bundle = join(checkout, 'generated/vectors.bundle.json')
    expect(script('vectors-bundle.ts', ['--check']), 'the project\'s bundle is stale: npm run vectors:bundle').toEqual({ status: 0, output: 'generated/vectors.bundle.json is up to date\n' })
    writeFileSync(bundle, readFileSync(bundle, 'utf8').replace('"caseCount":', '"caseCount":1'))
    expect(script('vectors-bundle.ts', ['--check'])).toEqual({ status: 1, output: 'generated/vectors.bundle.json is stale: run `npm run vectors:bundle`\n' })
    rmSync(bundle)
    expect(script('vectors-bundle.ts', ['--check'])).toMatchObject({ status: 1 })
    expect(script('vectors-bundle.ts')).toMatchObject({ status: 0, output: expect.stringMatching(/^wrote generated\/vectors\.bundle\.json \(\d+ cases\)\n$/) })
    expect(readFileSync(bundle, 'utf8')).toBe(readFileSync(join(projectRoot, 'generated/vectors.bundle.json'), 'utf8'))
    expect(script('vectors-bundle.ts', ['--check']).status).toBe(0)
  }, 120_000)
})

describe('scripts/generate-types.ts', () => {
  const strays = ['generated/types/stale.js', 'generated/types/old/a.ts', 'generated/notes.txt']

  it('--check fails on any file under generated/ that no generator writes; generating removes those of generated/types/', () => {
    mkdirSync(join(checkout, 'generated/types/old'))
    for (const stray of strays) writeFileSync(join(checkout, stray), '')
    const checked = script('generate-types.ts', ['--check'])
    expect(checked.status).toBe(1)
    for (const stray of strays) expect(checked.output).toContain(`extra: ${stray}`)
    expect(checked.output).toContain('extra: generated/notes.txt (no generator writes it: delete it)')

    expect(script('generate-types.ts').status).toBe(0)
    expect(strays.map((stray) => existsSync(join(checkout, stray)))).toEqual([false, false, true])
    expect(existsSync(join(checkout, 'generated/types/old'))).toBe(false)
    expect(script('generate-types.ts', ['--check'])).toMatchObject({ status: 1 })

    rmSync(join(checkout, 'generated/notes.txt'))
    // Files npm never packs, whatever the folder: no stray, since they cannot ship.
    for (const unpacked of ['generated/.DS_Store', 'generated/types/._index.ts', 'generated/types/.index.ts.swp', 'generated/.npmrc']) writeFileSync(join(checkout, unpacked), '')
    expect(script('generate-types.ts', ['--check'])).toEqual({
      status: 0,
      output: 'generated/types/ is up to date, and generated/ holds only what the generators write\n',
    })
  }, 90_000)
})
