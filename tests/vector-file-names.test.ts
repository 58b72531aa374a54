// The names and the order of the vector files do not depend on the platform: they are part of the
// bundle and of the suite's content hash. node:path and node:fs are faked to work as on Windows, with `\`
// between the parts of every path they make or list, while still reading this machine's files.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { posix } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { loadVectorCases, loadVectorFolder, projectRoot } from '../conformance/vector-cases.ts'

// vi.mock factories run before the module body: what they share is hoisted with them.
const { windowsPath, posixPath } = vi.hoisted(() => ({
  windowsPath: (path: string): string => path.replaceAll('/', '\\'),
  posixPath: (path: string): string => path.replaceAll('\\', '/'),
}))

vi.mock('node:path', async (importOriginal) => {
  const path = await importOriginal<typeof import('node:path')>()
  const windowsLike = {
    ...path,
    sep: '\\',
    basename: (name: string, suffix?: string) => path.basename(posixPath(name), suffix),
    join: (...parts: string[]) => windowsPath(path.join(...parts.map(posixPath))),
    relative: (from: string, to: string) => windowsPath(path.relative(posixPath(from), posixPath(to))),
    resolve: (...parts: string[]) => windowsPath(path.resolve(...parts.map(posixPath))),
  }
  return { ...windowsLike, default: windowsLike }
})

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  // Each function the folder walk and the reading of a file call, taking a path with `\` in it.
  const posixPathFirst = <F extends (path: string, ...rest: never[]) => unknown>(call: F): F =>
    ((path: string, ...rest: never[]) => call(posixPath(path), ...rest)) as F
  const windowsLike = {
    ...fs,
    readFileSync: posixPathFirst(fs.readFileSync),
    readdirSync: posixPathFirst(fs.readdirSync),
    realpathSync: Object.assign(posixPathFirst(fs.realpathSync), { native: posixPathFirst(fs.realpathSync.native) }),
    statSync: posixPathFirst(fs.statSync),
    lstatSync: posixPathFirst(fs.lstatSync),
  }
  return { ...windowsLike, default: windowsLike }
})

const folder = mkdtempSync(posix.join(tmpdir(), 'vector-file-names-'))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

describe('vector file names on Windows', () => {
  it('name the suite\'s files with / in the cases, every file of the bundle built on this platform', () => {
    const files = new Set(loadVectorCases().map((vector) => vector.file))
    expect([...files].filter((file) => !/^vectors\/[^/\\]+\/[^/\\]+\.yaml$/.test(file))).toEqual([])
    const bundle = JSON.parse(readFileSync(posix.join(projectRoot, 'generated/vectors.bundle.json'), 'utf8')) as { cases: { file: string }[] }
    expect([...files].sort()).toEqual([...new Set(bundle.cases.map((vector) => vector.file))].sort())
  })

  it('name and order the files of a folder of one\'s own as on every other platform', () => {
    // `a/` before `a0/`, as `/` sorts before `0`; `\` sorts after it.
    for (const [sub, source] of [['a', '15-fork/fork.yaml'], ['a0', '11-seeds/end-seed-marker.yaml']] as const) {
      mkdirSync(posix.join(folder, 'own', sub), { recursive: true })
      cpSync(posix.join(projectRoot, 'vectors', source), posix.join(folder, 'own', sub, posix.basename(source)))
    }
    const files = [...new Set(loadVectorFolder(posix.join(folder, 'own')).map((vector) => vector.file))]
    expect(files).toEqual(['own/a/fork.yaml', 'own/a0/end-seed-marker.yaml'])
  })
})
