/**
 * docs/quickstart.md, run as written: its ```sh blocks, in order and unchanged, in one bash
 * (errexit, pipefail) against a running ledger and gateway (separate processes, as `npm
 * start` runs them), from a folder whose ./data/demo.json is what `ledger demo --json` printed
 * for a fresh demo company — as after the first `npm start`. Only API points the blocks at
 * this stack's port. What the blocks print must contain the answers the doc shows (`…`
 * stands for what differs from run to run), and the books must hold what they claim.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { pdfText } from '../../ledger-service/test/support/pdf.ts';
import { startStack } from './support/processes.ts';
import { createDemo, rest } from './support/scenario.ts';

const DOC = fileURLToPath(new URL('../../docs/quickstart.md', import.meta.url));

/** The fenced blocks of one language, in order. */
function blocks(markdown: string, language: string): string[] {
  return [...markdown.matchAll(/^```([\w-]*)\n([\s\S]*?)^```$/gm)].filter((m) => m[1] === language).map((m) => m[2]!);
}

function bash(
  script: string,
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

t.test('docs/quickstart.md: the sh blocks run verbatim against a running platform', async (t) => {
  const markdown = readFileSync(DOC, 'utf8');
  const sh = blocks(markdown, 'sh');
  t.ok(sh.length >= 6, `${sh.length} sh blocks`);

  const stack = await startStack(t);
  const demo = await createDemo(stack);
  const dir = mkdtempSync(join(tmpdir(), 'quickstart-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'data'));
  writeFileSync(join(dir, 'data', 'demo.json'), JSON.stringify(demo, null, 2));

  const env = {
    PATH: `${dirname(process.execPath)}:${process.env.PATH ?? '/usr/bin:/bin'}`,
    HOME: dir,
    LANG: 'C.UTF-8',
    // the one thing the doc lets the environment choose: where the platform listens
    API: stack.apiUrl,
  };
  const run = await bash(['set -eo pipefail', ...sh].join('\n'), dir, env);
  t.equal(
    run.code,
    0,
    `the blocks ran to the end\n--- stdout\n${run.stdout}\n--- ` +
      `stderr\n${run.stderr}\n${run.code === 0 ? '' : stack.logs()}`,
  );

  // every answer the doc shows was printed (`…`: whatever this run's is)
  const shown = [...blocks(markdown, 'text'), ...blocks(markdown, 'json')]
    .flatMap((b) => b.split('\n'))
    .filter((l) => l.trim() !== '');
  t.ok(shown.length >= 8, `${shown.length} answer lines shown in the doc`);
  const printed = run.stdout.split('\n');
  for (const line of shown) {
    const pattern = new RegExp(
      `^${line
        .split('…')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join('.+')}$`,
    );
    t.ok(
      printed.some((p) => pattern.test(p)),
      `printed: ${line}`,
      { printed: run.stdout },
    );
  }

  // what the blocks claim is in the books
  const api = rest(demo);
  const bills = await api('GET', '/arap/transactions/vendor?document_number=PM-2291');
  t.match(
    bills.body,
    [{ status: 'posted', netAmount: 120, taxAmount: 9.72, grossAmount: 129.72 }],
    'the bill is posted with its input VAT',
  );
  const invoices = await api('GET', '/arap/invoices/customer');
  t.match(invoices.body, [{ grossAmount: 953.44, payment_status: 'paid', open: 0 }], 'the invoice is posted and paid');
  const invoice = readFileSync(join(dir, 'invoice.pdf'));
  t.equal(invoice.subarray(0, 5).toString('latin1'), '%PDF-', 'invoice.pdf is a PDF');
  const text = await pdfText(invoice);
  t.match(text, invoices.body[0].invNumber, 'of the invoice');
  t.match(text, /Receipt|Empfangsschein/, 'with its QR-bill payment part');
  t.equal(readFileSync(join(dir, 'vat.pdf')).subarray(0, 5).toString('latin1'), '%PDF-', 'vat.pdf is a PDF');
});
