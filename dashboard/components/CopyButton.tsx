import { useState } from 'preact/hooks';

/**
 * A button that copies `text` to the clipboard and says whether it could.
 *
 * @example
 * <CopyButton text={setup.snippet} label="Copy the snippet" />
 */
export const CopyButton = ({ text, label }: { text: string; label: string }) => {
  const [done, setDone] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setDone('Copied.');
    } catch {
      setDone('Copying was refused by the browser: select the text and copy it.');
    }
  };
  return (
    <p>
      <button type="button" onClick={copy}>
        {label}
      </button>{' '}
      <span role="status">{done}</span>
    </p>
  );
};
