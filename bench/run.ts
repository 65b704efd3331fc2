/**
 * `npm run bench`: every benchmark, one after the other, against real servers on this machine (loopback only).
 * Speed goals live here, not in the test suite.
 */
const suites: Array<[string, () => Promise<string>]> = [];

async function load(): Promise<void> {
  const { benchIntake } = await import('./intake.js');
  suites.push(['intake throughput (SQLite and PostgreSQL)', benchIntake]);
  const { benchScanUpload } = await import('./scan-upload.js');
  suites.push(['scan upload throughput', benchScanUpload]);
  const { benchInbox } = await import('./inbox.js');
  suites.push(['Leads inbox and CSV export at 100,000 leads (SQLite)', benchInbox]);
}

await load();
for (const [title, run] of suites) {
  process.stdout.write(`\n== ${title}\n`);
  process.stdout.write(`${await run()}\n`);
}
