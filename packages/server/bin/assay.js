#!/usr/bin/env node
// The `assay` command: the compiled CLI (built by `npm run build`, which `npm ci` runs).
import '../dist/main.js';
