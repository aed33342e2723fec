/** Help is wrapped to this many columns: most terminals have at least 100. */
export const WIDTH = 100;

/**
 * A help line written in markdown (it also goes into the README's table) as a terminal shows it:
 * `code` and [links](#anchors) as plain text, wrapped to WIDTH, every line after the first
 * indented by `indent` spaces.
 *
 * @example
 * terminalText('see [Retention](#retention), `--retention-days N`', 4) // 'see Retention, --retention-days N'
 */
export const terminalText = (markdown: string, indent: number, width = WIDTH) => {
  const plain = markdown.replace(/\[([^\]]+)\]\([^)]*\)/g, '$1').replace(/`([^`]*)`/g, '$1');
  const lines: string[] = [];
  let line = '';
  for (const word of plain.split(/\s+/).filter(Boolean)) {
    if (line && indent + line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(indent)}`);
};
