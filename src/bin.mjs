#!/usr/bin/env node
// The `tmas` executable. tsx compiles the TypeScript sources on the fly, so the
// package runs from a clean clone with no build step.
import { register } from 'tsx/esm/api';

register();
await import('./cli/main.ts');
