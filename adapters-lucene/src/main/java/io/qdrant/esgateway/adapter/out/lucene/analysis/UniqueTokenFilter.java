package io.qdrant.esgateway.adapter.out.lucene.analysis;

import java.io.IOException;
import org.apache.lucene.analysis.CharArraySet;
import org.apache.lucene.analysis.TokenFilter;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;

/** Elasticsearch's {@code unique} filter: keeps only the first occurrence of each token in the stream. */
final class UniqueTokenFilter extends TokenFilter {
    private final CharTermAttribute term = addAttribute(CharTermAttribute.class);
    private final CharArraySet seen = new CharArraySet(8, false);

    UniqueTokenFilter(TokenStream in) {
        super(in);
    }

    @Override
    public boolean incrementToken() throws IOException {
        while (input.incrementToken()) {
            if (!seen.contains(term.buffer(), 0, term.length())) {
                char[] copy = new char[term.length()];
                System.arraycopy(term.buffer(), 0, copy, 0, term.length());
                seen.add(copy);
                return true;
            }
        }
        return false;
    }

    @Override
    public void reset() throws IOException {
        super.reset();
        seen.clear();
    }
}
