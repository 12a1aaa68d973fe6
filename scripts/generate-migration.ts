// Generates the next SQL migration from src/db/schema with drizzle-kit. Migrations are committed.
import { execFileSync } from 'node:child_process';

const name = process.argv[2] ?? 'change';
execFileSync('npx', ['drizzle-kit', 'generate', '--name', name], { stdio: 'inherit' });
