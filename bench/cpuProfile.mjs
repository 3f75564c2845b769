// Preloaded into the gateway by bench/gateway.ts with BENCH_GATEWAY_PROFILE (NODE_OPTIONS
// refuses --cpu-prof): writes its pid to BENCH_CPU_PROFILE_DIR/pid; the first SIGUSR2 starts
// the V8 sampling profiler, the second stops it and writes gateway.cpuprofile there. So the
// profile covers exactly the measured stages, not start-up and warm-up.
import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.env.BENCH_CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  let running = false;
  writeFileSync(join(dir, 'pid'), String(process.pid));
  process.on('SIGUSR2', () => {
    if (!running) {
      running = true;
      session.post('Profiler.enable');
      session.post('Profiler.setSamplingInterval', { interval: 100 });
      session.post('Profiler.start');
      return;
    }
    running = false;
    session.post('Profiler.stop', (err, result) => {
      if (!err) writeFileSync(join(dir, 'gateway.cpuprofile'), JSON.stringify(result.profile));
      session.post('Profiler.disable');
    });
  });
}
