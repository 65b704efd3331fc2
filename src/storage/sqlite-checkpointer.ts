/**
 * The SQLite checkpoint thread: copies committed WAL frames back into the database file (a PASSIVE checkpoint,
 * which never blocks the writer) every few milliseconds, on a connection of its own. Without it the writer thread
 * ran each checkpoint inside a COMMIT (SQLite's auto-checkpoint): a batch whose commit crossed the WAL threshold
 * waited 30 to 50 ms for a thousand pages to be written and fsynced, and so did every request in it.
 * The writer keeps a high auto-checkpoint threshold as a safety valve in case this thread is gone.
 */
import { parentPort, workerData } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';

const { file, everyMs } = workerData as { file: string; everyMs: number };

const db = new BetterSqlite3(file);
db.pragma('busy_timeout = 5000');
db.pragma('wal_autocheckpoint = 0');

const timer = setInterval(() => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch {
    // Busy or a transient I/O error: the next round tries again, and the writer's safety valve stays.
  }
}, everyMs);

parentPort!.on('message', (message: { type: 'close' }) => {
  if (message.type !== 'close') return;
  clearInterval(timer);
  db.close();
  parentPort!.close();
});
