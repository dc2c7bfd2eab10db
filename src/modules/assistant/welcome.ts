// The welcome text: ASSISTANT_WELCOME_MESSAGE, else the file ASSISTANT_WELCOME_FILE (read once at
// start; a missing or empty file stops the start with a clear error), else the built-in greeting.
import fs from 'node:fs';
import type { Config } from '../../config.js';

export class WelcomeConfigError extends Error {
  override name = 'WelcomeConfigError';
}

/** The configured text, or undefined when the built-in (translated) greeting applies. */
export function configuredWelcome(config: Config): string | undefined {
  if (config.ASSISTANT_WELCOME_MESSAGE) return config.ASSISTANT_WELCOME_MESSAGE;
  if (!config.ASSISTANT_WELCOME_FILE) return undefined;
  let text: string;
  try {
    text = fs.readFileSync(config.ASSISTANT_WELCOME_FILE, 'utf8').trim();
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'does not exist' : 'cannot be read';
    throw new WelcomeConfigError(
      `ASSISTANT_WELCOME_FILE ${config.ASSISTANT_WELCOME_FILE} ${reason}; point it at a readable text file or unset it`,
    );
  }
  if (!text)
    throw new WelcomeConfigError(
      `ASSISTANT_WELCOME_FILE ${config.ASSISTANT_WELCOME_FILE} is empty; write the welcome text in it or unset it`,
    );
  return text;
}
