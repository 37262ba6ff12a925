#!/usr/bin/env node
// The `assay-mcp` command: the compiled server (built by `npm run build`, which `npm ci` runs).
import '../dist/main.js';
