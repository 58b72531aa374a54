// What a command loads before it starts: `dsh-conformance check` of a small file spent half its time
// loading the runner, and compiling the vector file schema at import, which it never uses.
import { readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { projectRoot } from '../conformance/vector-cases.ts'

/** The project's files that `start` imports statically, directly or not (type-only imports left out). */
function staticImports(start: string): Set<string> {
  const reached = new Set<string>()
  const visit = (file: string): void => {
    if (reached.has(file)) return
    reached.add(file)
    const source = readFileSync(file, 'utf8')
    for (const [, specifier] of source.matchAll(/^import\s+(?!type\b)[^']*?from\s+'(\.[^']+)'/gm)) {
      visit(resolve(dirname(file), specifier as string))
    }
  }
  visit(join(projectRoot, start))
  return new Set([...reached].map(file => relative(projectRoot, file)))
}

const RUNNER = ['conformance/cli-options.ts', 'conformance/run-command.ts', 'conformance/protocol.ts', 'conformance/reports/write.ts']

describe('the modules a command loads', () => {
  it('finds the imports it is meant to find', () => {
    // The walk itself: the run commands' module does reach the runner.
    expect([...staticImports('conformance/vector-commands.ts')]).toEqual(expect.arrayContaining(RUNNER))
  })

  it('dispatches to each command without loading any command first', () => {
    expect([...staticImports('conformance/cli-dispatch.ts')].sort()).toEqual(['conformance/cli-dispatch.ts', 'conformance/wording.ts'])
  })

  it('checks a file without loading the runner or the protocol', () => {
    const loaded = staticImports('conformance/check/check-file.ts')
    expect(RUNNER.filter(file => loaded.has(file))).toEqual([])
    expect(loaded.has('conformance/vector-cases.ts')).toBe(false)
    // The command around it too (its --known globs come from filters.ts, which reads vector-cases.ts).
    const command = staticImports('conformance/check/command.ts')
    expect(RUNNER.filter(file => command.has(file))).toEqual([])
  })

  it('compiles the vector file schema only when a vector file is read', () => {
    const source = readFileSync(join(projectRoot, 'conformance/vector-cases.ts'), 'utf8')
    const topLevelCompile = source.split('\n').filter(line => /^(const|let|export const)\b.*\.compile\(/.test(line))
    expect(topLevelCompile).toEqual([])
  })
})
