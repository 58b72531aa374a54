import { openSync, readSync } from 'node:fs'
import { checkFile } from '../conformance/check/check-file.ts'
import { RequirementIndex } from '../conformance/check/requirements.ts'
import { StreamingLoad } from '../conformance/check/streaming-load.ts'
const file = process.argv[2]!
const req = new RequirementIndex()
const realLine = StreamingLoad.prototype.line
const cpu = (fn: () => void) => { const t0 = process.cpuUsage(); fn(); const d = process.cpuUsage(t0); return (d.user + d.system) / 1000 }
function baseline() {
  const fd = openSync(file, 'r'); const chunk = Buffer.allocUnsafe(1 << 20)
  let carry = Buffer.alloc(0)
  for (let at = 0;;) { const n = readSync(fd, chunk, 0, chunk.length, at); if (!n) break; at += n
    let buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n); let s = 0
    for (let f = buf.indexOf(10); f !== -1; f = buf.indexOf(10, s)) { JSON.parse(buf.toString('utf8', s, f)); s = f + 1 }
    carry = Buffer.from(buf.subarray(s)) }
}
const best = new Map<string, number>()
for (let i = 0; i < 5; i++) {
  const run = (name: string, fn: () => void) => best.set(name, Math.min(best.get(name) ?? Infinity, cpu(fn)))
  run('baseline', baseline)
  StreamingLoad.prototype.line = function () {}
  run('decode only', () => checkFile(file, { vocabulary: 'v0-pinned', maxLineBytes: 64 << 20 }, req))
  StreamingLoad.prototype.line = function (records: unknown[], line: number) { (this as any).event(records[0], line) }
  run('first only', () => checkFile(file, { vocabulary: 'v0-pinned', maxLineBytes: 64 << 20 }, req))
  StreamingLoad.prototype.line = function (records: unknown[], line: number) { if (records.length === 1) (this as any).event(records[0], line) }
  run('full events only', () => checkFile(file, { vocabulary: 'v0-pinned', maxLineBytes: 64 << 20 }, req))
  StreamingLoad.prototype.line = realLine
  run('full', () => checkFile(file, { vocabulary: 'v0-pinned', maxLineBytes: 64 << 20 }, req))
}
console.log([...best].map(([k, v]) => `${k} ${v.toFixed(0)}`).join('\n'))
