// The adapter that ran a run (or runs an agent), in words; a registered external adapter reads as its type.
const ADAPTERS: Record<string, string> = {
  process: 'Local process',
  http: 'HTTP endpoint',
  claude_local: 'Claude Code (local)',
  codex_local: 'Codex (local)',
  gemini_local: 'Gemini CLI (local)',
  opencode_local: 'opencode (local)',
};
export const adapterLabel = (type: string): string => ADAPTERS[type] ?? type;
