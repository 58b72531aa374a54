import { openSync, readSync } from 'node:fs'
import { checkFile } from '../conformance/check/check-file.ts'
import { RequirementIndex } from '../conformance/check/requirements.ts'
const file = process.argv[2]!
function baseline() {
  const fd = openSync(file, 'r'); const chunk = Buffer.allocUnsafe(1 << 20)
  let lines = 0; let carry = Buffer.alloc(0)
  for (let at = 0;;) { const n = readSync(fd, chunk, 0, chunk.length, at); if (!n) break; at += n
    let buf = carry.length ? Buffer.concat([carry, chunk.subarray(0, n)]) : chunk.subarray(0, n); let s = 0
    for (let f = buf.indexOf(10); f !== -1; f = buf.indexOf(10, s)) { JSON.parse(buf.toString('utf8', s, f)); lines++; s = f + 1 }
    carry = Buffer.from(buf.subarray(s)) }
  return lines
}
const req = new RequirementIndex()
for (let i = 0; i < 3; i++) {
  let t0 = process.cpuUsage(); baseline(); let d = process.cpuUsage(t0); const b = (d.user + d.system) / 1000
  t0 = process.cpuUsage(); const r = checkFile(file, { vocabulary: 'v0-pinned', maxLineBytes: 64 << 20 }, req); d = process.cpuUsage(t0); const c = (d.user + d.system) / 1000
  console.log('baseline', b.toFixed(0), 'check', c.toFixed(0), 'ratio', (b / c).toFixed(2), r.status)
}
