// Small logs that the check tests build line by line, and the ways those tests read a report: a
// diagnostic of one code, and check run in a child process (what the process prints, its peak memory).
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { expect } from 'vitest'
import type { Diagnostic, FileReport } from '../../conformance/check/check-file.ts'

export const HEADER = '{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}'

export function userMessage(seq: number, content: string): string {
  return `{"type":"user/message","seq":${seq},"time":${seq},"data":{"id":"u${seq}","role":"user","content":${content},"source":{"kind":"user"}},"surfaceOp":"append"}`
}

/** A header and one complete turn of six events, one per line (lines 2 to 7). */
export function turnLines(content = '[{"type":"text","text":"hi"}]'): string[] {
  return [
    HEADER,
    '{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}',
    userMessage(1, content),
    '{"type":"step/start","seq":2,"time":2,"data":{"turn":1,"step":1}}',
    '{"type":"assistant/message","seq":3,"time":3,"data":{"turn":1,"step":1,"message":{"id":"a3","role":"assistant","content":[],"source":{"kind":"model","provider":"p","model":"m"}}},"surfaceOp":"append","sourceEventSeqs":[]}',
    '{"type":"step/end","seq":4,"time":4,"data":{"turn":1,"step":1}}',
    '{"type":"turn/end","seq":5,"time":5,"data":{"turn":1,"reason":{"kind":"completed"}}}',
  ]
}

export const text = (lines: readonly string[]): string => `${lines.join('\n')}\n`

/** turnLines under a header naming session `id` in the project of the working directory /workspace/project. */
export function sessionLines(id: string): string[] {
  const header = `{"type":"session","version":0,"id":"${id}","createdAt":1,"cwd":"/workspace/project","delegationDepth":0}`
  return [header, ...turnLines().slice(1)]
}

export function only(report: FileReport, severity: Diagnostic['severity'], code: string): Diagnostic {
  const found = report.diagnostics.filter(diagnostic => diagnostic.severity === severity && diagnostic.code === code)
  expect(found, JSON.stringify(report.diagnostics)).toHaveLength(1)
  return found[0] as Diagnostic
}

const CHILD = fileURLToPath(new URL('./child.ts', import.meta.url))

/**
 * The user a permissions test runs its child as: none when the tests do not run as root (chmod then
 * binds them already), nobody (65534) when they do, or undefined when nobody cannot read this
 * checkout (a project under a private home), where such a test cannot be run.
 */
export function permissionsUser(): { uid?: number } | undefined {
  if (process.getuid?.() !== 0) return {}
  const probe = spawnSync(process.execPath, ['-e', `require('node:fs').accessSync(${JSON.stringify(CHILD)})`], { uid: 65534, gid: 65534 })
  return probe.status === 0 ? { uid: 65534 } : undefined
}

/** `uid`: run as that user (and group), for a test of permissions that root would pass through. */
export function runChild(args: string[], uid?: number): { status: number; stdout: string; maxRssMb: number; ms: number } {
  const started = performance.now()
  const user = uid === undefined ? {} : { uid, gid: uid }
  const result = spawnSync(process.execPath, ['--import', 'tsx', CHILD, ...args], { encoding: 'utf8', maxBuffer: 1 << 24, ...user })
  const rss = JSON.parse(result.stderr.trim().split('\n').at(-1) as string) as { maxRssMb: number }
  return { status: result.status as number, stdout: result.stdout, maxRssMb: rss.maxRssMb, ms: performance.now() - started }
}
