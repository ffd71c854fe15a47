/** The text with the suggestion's quote marked, so the grader sees what the rationale rests on. */
export function HighlightedText({ text, quote }: { text: string; quote: string }) {
  const at = quote ? text.indexOf(quote) : -1;
  if (at < 0) return <>{text}</>;
  return (
    <>
      {text.slice(0, at)}
      <mark data-testid="answer-quote" className="rounded bg-yellow-100 px-0.5">
        {quote}
      </mark>
      {text.slice(at + quote.length)}
    </>
  );
}
