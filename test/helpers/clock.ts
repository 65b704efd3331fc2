import type { Clock } from '../../src/domain/context.js';

/** A clock the test moves by hand (expiry, retention). */
export class TestClock implements Clock {
  constructor(private at: number) {}
  now() {
    return new Date(this.at);
  }
  advance(ms: number) {
    this.at += ms;
  }
}
