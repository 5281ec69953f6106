#!/usr/bin/env node
// A committed, executable entry point: the compiled one in dist/ loses its mode on every build.
import '../dist/bin/agent-runs-server.js';
