#!/usr/bin/env node
// The compiled CLI; `npm ci` builds it through the `prepare` script.
import { main } from '../dist/cli.js';

process.exitCode = await main(process.argv.slice(2));
