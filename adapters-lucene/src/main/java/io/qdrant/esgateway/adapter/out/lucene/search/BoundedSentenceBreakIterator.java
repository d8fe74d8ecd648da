package io.qdrant.esgateway.adapter.out.lucene.search;

import java.text.BreakIterator;
import java.text.CharacterIterator;
import java.util.Locale;

/**
 * Elasticsearch's sentence boundary scanner bounded by {@code fragment_size}, for the unified highlighter's
 * {@code FieldHighlighter}, which calls {@link #preceding(int)} with increasing offsets, each followed by
 * {@link #following(int)}:
 *
 * <ol>
 *   <li>the passage starts as the sentence holding the offset, and whole following sentences are added while the
 *       passage stays within {@code maxLen} characters;</li>
 *   <li>a later match inside that window continues in it (from the previous passage's end);</li>
 *   <li>when the sentence alone is longer than {@code maxLen}, it is cut at word boundaries: the start moves right to
 *       the word boundary before {@code offset - maxLen}, and the end is the word boundary after the
 *       remaining length ({@code maxLen - (offset - start)}) past the offset.</li>
 * </ol>
 */
final class BoundedSentenceBreakIterator extends BreakIterator {
    private final BreakIterator mainBreak = BreakIterator.getSentenceInstance(Locale.ROOT);
    private final BreakIterator innerBreak = BreakIterator.getWordInstance(Locale.ROOT);
    private final int maxLen;

    private int windowStart = -1;
    private int windowEnd = -1;
    private int innerStart = -1;
    private int innerEnd = 0;

    BoundedSentenceBreakIterator(int maxLen) {
        this.maxLen = maxLen;
    }

    @Override
    public int preceding(int offset) {
        if (offset > windowStart && offset < windowEnd) {
            innerStart = innerEnd;
            innerEnd = windowEnd;
        } else {
            windowStart = innerStart = mainBreak.preceding(offset);
            windowEnd = innerEnd = mainBreak.following(offset - 1);
            while (innerEnd - innerStart < maxLen) {
                int newEnd = mainBreak.following(innerEnd);
                if (newEnd == DONE || newEnd - innerStart > maxLen) {
                    break;
                }
                windowEnd = innerEnd = newEnd;
            }
        }
        if (innerEnd - innerStart > maxLen) {
            if (offset - maxLen > innerStart) {
                innerStart = Math.max(innerStart, innerBreak.preceding(offset - maxLen));
            }
            int remaining = Math.max(0, maxLen - (offset - innerStart));
            if (offset + remaining < windowEnd) {
                innerEnd = Math.min(windowEnd, innerBreak.following(offset + remaining));
            }
        }
        return innerStart;
    }

    /** The end of the passage found by the last {@link #preceding(int)}. */
    @Override
    public int following(int offset) {
        return innerEnd;
    }

    @Override
    public int current() {
        return innerStart < 0 ? 0 : innerStart;
    }

    @Override
    public int first() {
        reset();
        return 0;
    }

    @Override
    public int last() {
        return mainBreak.last();
    }

    @Override
    public int next(int n) {
        throw new UnsupportedOperationException();
    }

    @Override
    public int next() {
        throw new UnsupportedOperationException();
    }

    @Override
    public int previous() {
        throw new UnsupportedOperationException();
    }

    @Override
    public CharacterIterator getText() {
        return mainBreak.getText();
    }

    @Override
    public void setText(CharacterIterator text) {
        reset();
        mainBreak.setText(text);
        innerBreak.setText(text);
    }

    @Override
    public void setText(String text) {
        reset();
        mainBreak.setText(text);
        innerBreak.setText(text);
    }

    private void reset() {
        windowStart = -1;
        windowEnd = -1;
        innerStart = -1;
        innerEnd = 0;
    }
}
