import type { ModelInfo } from '@agent-runs/core/contract';
import type { HarnessName } from '../domain/harness-config.js';

/** The models each harness is known to run, before the configuration file adds its own. */
export const BUILT_IN_MODELS: Record<HarnessName, readonly ModelInfo[]> = {
  claude: [
    { id: 'claude-sonnet-4-5', display_name: 'Claude Sonnet 4.5 (Claude Code)', provider: 'ANTHROPIC', vision_supported: true },
    { id: 'claude-opus-4-5', display_name: 'Claude Opus 4.5 (Claude Code)', provider: 'ANTHROPIC', vision_supported: true },
    { id: 'claude-haiku-4-5', display_name: 'Claude Haiku 4.5 (Claude Code)', provider: 'ANTHROPIC', vision_supported: true },
  ],
  codex: [
    { id: 'gpt-5.5', display_name: 'GPT-5.5 (Codex CLI)', provider: 'OPENAI', vision_supported: true },
    { id: 'gpt-5-codex', display_name: 'GPT-5 Codex (Codex CLI)', provider: 'OPENAI', vision_supported: true },
    { id: 'gpt-5', display_name: 'GPT-5 (Codex CLI)', provider: 'OPENAI', vision_supported: true },
  ],
  gemini: [
    { id: 'gemini-2.5-pro', display_name: 'Gemini 2.5 Pro (Gemini CLI)', provider: 'GOOGLE', vision_supported: true },
    { id: 'gemini-2.5-flash', display_name: 'Gemini 2.5 Flash (Gemini CLI)', provider: 'GOOGLE', vision_supported: true },
    { id: 'gemini-3-pro-preview', display_name: 'Gemini 3 Pro Preview (Gemini CLI)', provider: 'GOOGLE', vision_supported: true },
    { id: 'gemini-3-flash-preview', display_name: 'Gemini 3 Flash Preview (Gemini CLI)', provider: 'GOOGLE', vision_supported: true },
  ],
};

/** Who makes each harness's models, for a model the configuration file adds. */
export const HARNESS_PROVIDER: Record<HarnessName, ModelInfo['provider']> = { claude: 'ANTHROPIC', codex: 'OPENAI', gemini: 'GOOGLE' };
