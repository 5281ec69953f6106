const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The command of an agent that is `node -e <script>`, quoted for the shell the executor runs it in. */
export function nodeAgentCommand(script: string): string {
  return `${shellQuote(process.execPath)} -e ${shellQuote(script)}`;
}
